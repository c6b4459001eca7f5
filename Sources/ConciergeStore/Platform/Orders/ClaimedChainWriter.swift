import Foundation

/// Writes claimed chains on PostgreSQL, gathering the ones that arrive together into one
/// statement: one round trip and one commit for a whole group of bookings. At most
/// `maxStatements` statements run at once; a chain that arrives while they all run waits for the
/// next one, which takes every waiting chain (up to `maxChains`). A lone chain is written at
/// once, so batching adds no wait when the server is quiet.
///
/// Why: much of PostgreSQL's work for a booking statement is per statement (executor start-up
/// for seven inserts, the commit and its WAL flush, the round trip), not per row. On a 2-core
/// machine `book` went from about 2,150 to 2,900 bookings/s with this writer (docs/performance.md, "Bookings
/// on PostgreSQL against pgbench").
///
/// Two statements at once rather than one, so one slow statement does not hold every booking;
/// not more: in one pass of 5-second runs 1, 2, 4, 8 and 16 at once booked 3,302, 2,950, 2,647,
/// 2,378 and 1,909 per second (more at once makes smaller groups that contend), and one and two
/// alternating three times more were level (2,799 / 2,944 / 2,929 against 2,916 / 2,931 / 2,886).
///
/// Whoever holds a turn runs the statement; when it is done it hands the turn to the oldest
/// waiting chain's request, so no loop of its own outlives the requests.
final class ClaimedChainWriter: @unchecked Sendable {
    typealias Outcome = ClaimedChainStatement.Outcome

    private let database: any SQLDatabase
    private let maxStatements: Int
    private let maxChains: Int

    private let lock = NSLock()
    private var waiting: [Waiter] = []
    private var running = 0

    init(database: any SQLDatabase, maxStatements: Int = 2, maxChains: Int = 32) {
        precondition(maxStatements > 0 && maxChains > 0)
        self.database = database
        self.maxStatements = maxStatements
        self.maxChains = maxChains
    }

    /// Chains waiting for a statement (tests line them up behind a held one).
    var waitingCount: Int { lock.withLock { waiting.count } }

    private enum Turn {
        case done(Result<Outcome, any Error>)
        case lead
    }

    private struct Waiter {
        let chain: ClaimedChain
        let continuation: CheckedContinuation<Turn, Never>
    }

    /// Writes `chain`, alone or with others. `.headTaken` when its head's unique value was taken;
    /// an error only this chain caused is this chain's alone.
    func write(_ chain: ClaimedChain) async throws -> Outcome {
        let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
            let lead = lock.withLock {
                guard running < maxStatements else {
                    waiting.append(Waiter(chain: chain, continuation: continuation))
                    return false
                }
                running += 1
                return true
            }
            if lead { continuation.resume(returning: .lead) }
        }
        switch turn {
        case .done(let result): return try result.get()
        case .lead: return try await lead(with: chain).get()
        }
    }

    /// Runs one statement for `own` and the waiting chains that fit with it, answers them, and
    /// passes the turn on.
    private func lead(with own: ClaimedChain) async -> Result<Outcome, any Error> {
        let others = lock.withLock { takeWaiting(joining: own) }
        // In a task of its own: the others' bookings must not fail because this request was
        // cancelled (its client went away) while their statement ran.
        let chains = [own] + others.map(\.chain)
        let database = self.database
        let results = await Task { await Self.write(chains, on: database) }.value
        for (waiter, result) in zip(others, results.dropFirst()) {
            waiter.continuation.resume(returning: .done(result))
        }
        let next: Waiter? = lock.withLock {
            guard !waiting.isEmpty else {
                running -= 1
                return nil
            }
            return waiting.removeFirst()
        }
        next?.continuation.resume(returning: .lead)
        return results[0]
    }

    /// The oldest waiting chains that can share `own`'s statement, up to `maxChains` in all, none sharing a claim
    /// key with another; the rest keep waiting in order.
    private func takeWaiting(joining own: ClaimedChain) -> [Waiter] {
        var keys: Set<[SQLValue]> = own.claimKey.map { [$0] } ?? []
        var taken: [Waiter] = []
        var kept: [Waiter] = []
        for waiter in waiting {
            let key = waiter.chain.claimKey
            if taken.count + 1 < maxChains, waiter.chain.sharesStatement(with: own),
                key.map({ !keys.contains($0) }) ?? true
            {
                if let key { keys.insert(key) }
                taken.append(waiter)
            } else {
                kept.append(waiter)
            }
        }
        waiting = kept
        return taken
    }

    /// One statement for all `chains`. A refused statement wrote nothing; then each chain is
    /// written alone, so only the chain that caused it (a taken reference, say) hears of it.
    /// A lost connection is every chain's error: whether it committed is unknown, so nothing is
    /// written again.
    static func write(_ chains: [ClaimedChain], on database: any SQLDatabase) async -> [Result<Outcome, any Error>] {
        do {
            return try await ClaimedChainStatement.run(chains, on: database).map { .success($0) }
        } catch let error where chains.count > 1 && PostgresEngine.refusedStatement(error) {
            var results: [Result<Outcome, any Error>] = []
            for chain in chains { results += await write([chain], on: database) }
            return results
        } catch let violation as SQLUniqueViolation where violation.table == chains[0].head.table {
            return [.success(.headTaken)]
        } catch {
            return Array(repeating: .failure(error), count: chains.count)
        }
    }
}
