"""axe-core in the browser tests: the WCAG 2.1 A and AA rules run on a page as the browser shows
it, and each violation said with its rule, impact, the elements it found and the rule's help page.

axe.min.js comes out of a pinned PyPI wheel (scripts/ensure-axe puts it in .concierge/axe). It is
injected with WebDriver's execute_script, which the pages' Content-Security-Policy does not
govern, so the pages' policy stays as strict as it is for visitors.
"""

import os
import pathlib

AXE_FILE = pathlib.Path(os.environ.get("CONCIERGE_AXE_FILE", ".concierge/axe/axe.min.js"))
WCAG_21_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

_script = None


def axe_script():
    global _script
    if _script is None:
        if not AXE_FILE.is_file():
            raise AssertionError(f"{AXE_FILE} is missing: run ./scripts/ensure-axe (scripts/test-browser does)")
        _script = AXE_FILE.read_text(encoding="utf-8")
    return _script


def axe_violations(driver):
    """The page's WCAG 2.1 A/AA violations as axe reports them (a list of rule results)."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(axe_script())
    result = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})
          .then(results => done(results.violations))
          .catch(error => done({error: String(error)}));
        """,
        WCAG_21_A_AA,
    )
    if isinstance(result, dict) and "error" in result:
        raise AssertionError(f"axe failed on {driver.current_url}: {result['error']}")
    return result


def describe(violations, where):
    """One line per violated rule and one per element it found, for a failing test's message."""
    lines = []
    for violation in violations:
        lines.append(f"{where}: {violation['id']} ({violation.get('impact')}) {violation.get('helpUrl')}")
        for node in violation.get("nodes", [])[:10]:
            lines.append(f"    {node.get('target')}: {node.get('failureSummary', '').splitlines()[-1:]}")
    return "\n".join(lines)


def assert_no_axe_violations(driver, where=None):
    driver.set_script_timeout(60)
    violations = axe_violations(driver)
    assert violations == [], "\n" + describe(violations, where or driver.current_url)
