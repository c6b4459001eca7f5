/// The shows the seats scenario sells, one at a time. At a thousand orders a second a 2,000-seat
/// show sells out in about a second, so when buyers find the current one full, the next show
/// (created ahead of time) goes on sale at once and a new spare is created in the background:
/// no buyer waits for a show to be created while the clock runs, unless sales outrun the spares.
actor ShowRotation {
    /// Where new spares are created; the crash drill moves it to each restarted server.
    private(set) var port: Int
    private let venueID: String
    private(set) var current: String
    private var spares: [String]
    /// Every show put on sale, in order: the audit checks each one.
    private(set) var sold: [String]
    private var created = 1

    /// Spares kept ready ahead of the current show.
    static let spareCount = 3

    private init(port: Int, venueID: String, shows: [String]) {
        self.port = port
        self.venueID = venueID
        current = shows[0]
        spares = Array(shows.dropFirst())
        sold = [shows[0]]
        created = shows.count
    }

    static func start(port: Int, venueID: String) async throws -> ShowRotation {
        let shows = try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
            var shows: [String] = []
            for number in 1...(1 + spareCount) {
                shows.append(try await EventsLoadFixture.createShow(venueID: venueID, number: number, on: connection))
            }
            return shows
        }
        return ShowRotation(port: port, venueID: venueID, shows: shows)
    }

    /// The show on sale after `full` ran out of seats; the current one if another buyer moved on
    /// already.
    func show(after full: String) async throws -> String {
        guard full == current else { return current }
        if spares.isEmpty {
            // Sales outran the spares: wait for a show (a racer may have put another on sale
            // meanwhile; then this one is a spare).
            let made = try await newSpare().value
            if full == current { putOnSale(made) } else { addSpare(made) }
        } else {
            putOnSale(spares.removeFirst())
        }
        let spare = newSpare()
        Task { if let made = try? await spare.value { self.addSpare(made) } }
        return current
    }

    /// The server now answers on `port` (a restart): spares are created there from now on.
    func serve(on port: Int) { self.port = port }

    private func putOnSale(_ show: String) {
        current = show
        sold.append(show)
    }

    private func addSpare(_ show: String) {
        guard !sold.contains(show) else { return }
        spares.append(show)
    }

    private func newSpare() -> Task<String, any Error> {
        created += 1
        let number = created
        let port = port
        let venueID = venueID
        return Task {
            try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
                try await EventsLoadFixture.createShow(venueID: venueID, number: number, on: connection)
            }
        }
    }
}
