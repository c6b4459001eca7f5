extension HTTPBenchmarkReport {
    /// The ratio's key in `ratios`: sign-in p99 under the flood over quiet, median of the rounds.
    static let signUpFloodRatio = "sign-in p99 flood/quiet"

    /// Issue 26 item 3: real sign-ins keep their p99 within twice the quiet one while one network
    /// floods sign-up. Judged on every engine: the flood is turned away before the database
    /// matters much (a refused sign-up reads its limit's events and writes nothing).
    static func signUpFloodTargets(_ results: [String: LoadResult], ratio: Double?) -> [Target] {
        guard let ratio, let quiet = results[SignUpFloodScenarios.quietName],
            let flooded = results[SignUpFloodScenarios.floodedName]
        else { return [] }
        return [
            .init(
                name: "sign-in p99 under a sign-up flood", goal: "≤ 2× quiet",
                measured:
                    "\(f2(ratio))× (median of the rounds' ratios; median rounds: quiet "
                    + "\(f1(quiet.latencyMilliseconds.p99)) ms, under flood \(f1(flooded.latencyMilliseconds.p99)) ms)",
                met: ratio <= 2)
        ]
    }

    /// What the flood got back and which settings its server ran with.
    static func signUpFloodLine(_ flood: SignUpFloodSummary) -> String {
        let answers = flood.floodAnswers.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }
        let settings = flood.serverSettings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "sign-up flood: \(flood.floodConnections) connections from \(flood.floodNetwork), "
            + "\(flood.signInWorkers) sign-in worker(s) on networks of their own; the flood's answers "
            + "(warm-ups included, expected, not errors): \(answers.joined(separator: ", ")); "
            + "round ratios \(flood.roundRatios.map(f2).joined(separator: " "))"
            + (flood.starvedRounds > 0
                ? " (\(flood.starvedRounds) round(s) in which no sign-in finished: the window counted as its p99)" : "")
            + "; server: \(settings.joined(separator: " "))"
    }
}
