import ConciergeCore
import Foundation

/// The pricing step as the page shows it: the ride, its surcharges, and the three classes with
/// their prices in the visitor's locale; classes too small for the party cannot be picked.
struct RidesQuoteView {
    let rides: RidesWebPages
    let visit: WebVisit

    func context(_ ride: RidePricingService.RideQuote, form: RideRequestForm) -> [String: Any] {
        let passengers = form.passengerCount ?? 1
        let fitting = VehicleClass.allCases.filter { (ride.quote.prices[$0]?.maxPassengers ?? 0) >= passengers }
        let picked = VehicleClass(rawValue: form.vehicleClass).flatMap { fitting.contains($0) ? $0 : nil }
        let checked = picked ?? fitting.first
        let classes = VehicleClass.allCases.compactMap { vehicleClass -> [String: Any]? in
            guard let price = ride.quote.prices[vehicleClass] else { return nil }
            let fits = price.maxPassengers >= passengers
            return [
                "code": vehicleClass.rawValue, "name": rides.classLabel(vehicleClass, visit),
                "vehicle": price.vehicle,
                "seats": rides.text("seats", visit).replacingOccurrences(
                    of: "{count}", with: String(price.maxPassengers)),
                "price": WebFormat.money(cents: price.priceCents, visit.language), "fits": fits,
                "checked": vehicleClass == checked,
            ]
        }
        let kilometres = Double(ride.route.distanceMeters) / 1000
        let minutes = (ride.route.durationSeconds + 59) / 60
        return [
            "from": form.pickup, "to": form.destination,
            "when": WebFormat.dateTime(ride.pickup, visit.language),
            "distance": String(format: "%.1f km", kilometres), "duration": "\(minutes) min",
            "adjustments": ride.quote.adjustments.map { adjustment in
                // The tariff's own label names the holiday and the night's hours; German has one
                // word per kind.
                let label = rides.text("adjustment_\(adjustment.code)", visit)
                return visit.language == .en || label.hasPrefix("rides.") ? adjustment.label : label
            },
            "hasAdjustments": !ride.quote.adjustments.isEmpty,
            "classes": classes,
            "carried": form.carried(),
            "passengers": passengers,
        ]
    }
}
