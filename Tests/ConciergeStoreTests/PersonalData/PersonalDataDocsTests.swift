import ConciergeStore
import Foundation
import Testing

/// docs/privacy.md lists every registered column, so the documented export cannot drift from
/// what the registry (and so the schema) holds.
@Suite struct PersonalDataDocsTests {
    @Test func thePrivacyPageListsEveryRegisteredColumn() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/privacy.md"), encoding: .utf8)
        for entry in PersonalDataRegistry.all {
            #expect(
                page.contains("`\(entry.table).\(entry.column)`"),
                "docs/privacy.md lacks \(entry.table).\(entry.column)")
        }
    }
}
