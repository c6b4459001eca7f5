import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The places and pricing allowance of a client network counts in the database, so two instances
/// on one PostgreSQL (or one SQLite server) let it through no more often than one.
@Suite struct PublicReadsTwoInstancesTests {
    @Test(arguments: TestEngine.all)
    func readsSpreadOverTwoInstancesShareOneAllowance(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: ["CONCIERGE_PUBLIC_READS_PER_MINUTE": "60"])
        let pickup = WireDate.string(from: app.clock.now.addingTimeInterval(3 * 86_400))
        let pricing =
            "/rides/pricing?originPlaceId=gz_iata_ZRH&destinationPlaceId=gz_geo_2657896&pickupDatetime=\(pickup)"
        try await app.run { first in
            try await (engine == .postgres ? try app.sibling() : app).run { second in
                var passed = 0
                var refused = 0
                for n in 0..<160 {
                    let client = n.isMultiple(of: 2) ? first : second
                    let uri = n.isMultiple(of: 4) ? "/rides/places/autocomplete?input=zur" : pricing
                    switch try await client.send(.get, uri).status {
                    case .ok: passed += 1
                    case .tooManyRequests: refused += 1
                    case let status: Issue.record("unexpected \(status)")
                    }
                }
                #expect(passed == 60)
                #expect(refused == 100)
            }
        }
    }
}
