import ConciergeModels
import Foundation

/// The drill's customers (half with an email address, so both confirmation channels are
/// checked) and the places they ride between.
struct DrillFixture: Sendable {
    struct Customer: Sendable {
        let phone: String
        let email: String?
        let token: String
        /// Where the confirmation goes: email when there is an address, else SMS.
        var recipient: String { email ?? phone }
    }

    let customers: [Customer]
    let trips: BenchmarkFixture

    static func prepare(port: Int, customers count: Int) async throws -> DrillFixture {
        // New phone numbers every run, so a reused PostgreSQL database never hits the per-phone
        // resend limit.
        let run = Int.random(in: 0..<9_000_000)
        return try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
            let places = try await BenchmarkFixture.lookUpPlaces(on: connection)
            var customers: [Customer] = []
            for index in 0..<max(1, count) {
                let phone = BenchmarkFixture.phone(prefix: 77, number: run + index)
                let token = try await BenchmarkFixture.signIn(phone: phone, on: connection)
                var email: String?
                if index.isMultiple(of: 2) {
                    let address = "crash-\(run + index)@example.com"
                    let updated = try await connection.send(
                        LoadRequest(
                            method: .PATCH, uri: "/rides/me",
                            headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")],
                            body: #"{"name":"Crash Drill \#(index)","email":"\#(address)"}"#))
                    try updated.expect(200, "PATCH /rides/me")
                    email = address
                }
                customers.append(Customer(phone: phone, email: email, token: token))
            }
            return DrillFixture(
                customers: customers,
                trips: BenchmarkFixture(
                    places: places, sessionTokens: customers.map(\.token), firstPickup: BenchmarkFixture.firstPickup()))
        }
    }
}
