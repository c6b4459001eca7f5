import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// `GET /rides/pricing`: prices per vehicle class; no sign-in needed.
struct RidesPricingController {
    let pricing: RidePricingService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("pricing", use: price)
    }

    @Sendable func price(request: Request, context: AppRequestContext) async throws -> Response {
        let query = Query(request)
        let origin = try query.required("originPlaceId")
        let destination = try query.required("destinationPlaceId")
        let pickupText = try query.required("pickupDatetime", maxLength: 40)
        guard let pickup = WireDate.date(from: pickupText) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request",
                message: "'pickupDatetime' must be an ISO 8601 time such as 2025-01-15T13:00:00.000Z.")
        }
        let ride = try await pricing.price(originPlaceId: origin, destinationPlaceId: destination, pickup: pickup)
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: PricingResponse(ride).json))
    }
}

extension PricingResponse {
    init(_ ride: RidePricingService.RideQuote) {
        func price(_ vehicleClass: VehicleClass) -> VehiclePrice {
            let price = ride.quote.prices[vehicleClass] ?? ClassPrice(priceCents: 0, vehicle: "", maxPassengers: 0)
            return VehiclePrice(
                priceCents: price.priceCents, priceFormatted: Money.formatCHF(price.priceCents), vehicle: price.vehicle,
                maxPassengers: price.maxPassengers)
        }
        self.init(
            distanceKm: WireFigures.kilometres(meters: ride.route.distanceMeters),
            durationMinutes: WireFigures.minutes(seconds: ride.route.durationSeconds),
            pickupDatetime: WireDate.string(from: ride.pickup),
            prices: VehiclePrices(business: price(.business), first: price(.first), xl: price(.xl)),
            adjustments: ride.quote.adjustments.map {
                PricingAdjustment(code: $0.code, label: $0.label, percent: $0.percent, amountCents: $0.amountCents)
            })
    }
}
