import ConciergeCore
import Foundation

/// What the person typed into the booking form, kept as typed so a page that says what to fix
/// shows it again. Read from the pricing step's query or from the posted booking.
struct RideRequestForm: Sendable {
    var pickup = ""
    /// The place picked from the suggestions (the script's listbox, or a radio button without it).
    var pickupId = ""
    /// The text the picked place was chosen for: edited text means a new search.
    var pickupChosen = ""
    /// A radio button picked from the matches of a search (pages without the script).
    var pickupPick = ""
    var destination = ""
    var destinationId = ""
    var destinationChosen = ""
    var destinationPick = ""
    var date = ""
    var time = ""
    var passengers = "1"
    var flight = ""
    var vehicleClass = ""
    /// The booking's idempotency key: a double submission books once.
    var key = ""

    init() {}

    /// Reads every field through `value` (a query or a posted form).
    init(_ value: (String) -> String?) {
        func field(_ name: String, limit: Int = 300) -> String {
            String((value(name) ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(limit))
        }
        pickup = field("pickup")
        pickupId = field("pickupId")
        pickupChosen = field("pickupChosen")
        pickupPick = field("pickupPick")
        destination = field("destination")
        destinationId = field("destinationId")
        destinationChosen = field("destinationChosen")
        destinationPick = field("destinationPick")
        date = field("date", limit: 20)
        time = field("time", limit: 20)
        passengers = field("passengers", limit: 3)
        flight = field("flight", limit: 20)
        vehicleClass = field("vehicleClass", limit: 20)
        key = field("key", limit: 100)
        if passengers.isEmpty { passengers = "1" }
    }

    /// The place id to use for a side, if the person picked one for the text now in the field.
    func pickedPlace(_ side: RidePlaceSide) -> String? {
        let (text, id, chosen, pick) =
            side == .pickup
            ? (pickup, pickupId, pickupChosen, pickupPick)
            : (destination, destinationId, destinationChosen, destinationPick)
        if !pick.isEmpty { return pick }
        if !id.isEmpty, text == chosen { return id }
        return nil
    }

    func text(_ side: RidePlaceSide) -> String { side == .pickup ? pickup : destination }

    mutating func choose(_ side: RidePlaceSide, id: String, description: String) {
        switch side {
        case .pickup: (pickup, pickupId, pickupChosen, pickupPick) = (description, id, description, "")
        case .destination:
            (destination, destinationId, destinationChosen, destinationPick) = (description, id, description, "")
        }
    }

    /// The pickup as a moment, reading the date and time as Zurich wall-clock time.
    var pickupAt: Date? { Self.zurichMoment(day: date, time: time) }

    var passengerCount: Int? { Int(passengers).flatMap { (1...99).contains($0) ? $0 : nil } }

    /// `2026-12-01` and `14:30` in Europe/Zurich (daylight saving included) as a moment.
    static func zurichMoment(day: String, time: String) -> Date? {
        let dayParts = day.split(separator: "-").compactMap { Int($0) }
        let timeParts = time.split(separator: ":").compactMap { Int($0) }
        guard dayParts.count == 3, (2...3).contains(timeParts.count), (1...12).contains(dayParts[1]),
            (1...31).contains(dayParts[2]), (0...23).contains(timeParts[0]), (0...59).contains(timeParts[1])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = WebFormat.zurich
        let components = DateComponents(
            year: dayParts[0], month: dayParts[1], day: dayParts[2], hour: timeParts[0], minute: timeParts[1])
        guard let moment = calendar.date(from: components),
            calendar.component(.day, from: moment) == dayParts[2]
        else { return nil }
        return moment
    }

    /// The calendar day of `date` in Zurich, as a date field wants it (`2026-12-01`).
    static func zurichDay(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = WebFormat.zurich
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The hidden fields that carry a priced request to the booking.
    func carried() -> [[String: String]] {
        [
            ("pickup", pickup), ("pickupId", pickupId), ("pickupChosen", pickupChosen), ("destination", destination),
            ("destinationId", destinationId), ("destinationChosen", destinationChosen), ("date", date),
            ("time", time), ("passengers", passengers), ("flight", flight), ("key", key),
        ].map { ["name": $0.0, "value": $0.1] }
    }
}

enum RidePlaceSide: String, CaseIterable, Sendable {
    case pickup
    case destination
}
