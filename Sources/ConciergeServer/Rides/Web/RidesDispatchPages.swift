import ConciergeCore
import Foundation
import Hummingbird

/// `/ops/rides`: the operator's dispatch — the rides, a driver for each, and every step after
/// (en route, arrived, on board, completed or no show), through the same `BookingService.advance`
/// the admin API calls, so the state machine refuses the same impossible steps.
struct RidesDispatchPages: Sendable {
    let rides: RidesWebPages

    private var web: WebFrontEnd { rides.web }

    @Sendable func list(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        try web.requireOperator(visit)
        let filter = request.uri.queryParameters.get("status").flatMap { BookingState(rawValue: String($0)) }
        let found = try await rides.bookings.adminBookings(
            state: filter, pickupFrom: nil, pickupTo: nil, limit: 100, offset: 0)
        let view = RidesBookingView(rides: rides, visit: visit)
        let data: [String: Any] = [
            "rideRows": found.map { booking in
                var row = view.context(booking)
                row["href"] = "/ops/rides/\(booking.reference)"
                return row
            },
            "hasRides": !found.isEmpty,
            "statusOptions": BookingState.allCases.map { state in
                [
                    "value": state.rawValue, "label": rides.statusLabel(state, visit), "selected": state == filter,
                ] as [String: Any]
            },
        ]
        return web.page(
            "ops/rides", title: rides.text("ops_title", visit), data: data, visit: visit, styles: ["rides.css"])
    }

    @Sendable func ride(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        try web.requireOperator(visit)
        let booking = try await rides.bookings.adminBooking(reference: try context.parameters.require("reference"))
        var notice: String?
        if let moved = request.uri.queryParameters.get("moved").flatMap({ BookingState(rawValue: String($0)) }) {
            notice = rides.text("ops_moved", visit).replacingOccurrences(
                of: "{status}", with: rides.statusLabel(moved, visit))
        }
        return try await ridePage(visit, booking: booking, driver: nil, notice: notice, errors: RidesPageErrors())
    }

    @Sendable func move(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        try web.requireOperator(visit)
        let form = try await web.form(request, context: context, visit: visit)
        let reference = try context.parameters.require("reference")
        let typed = DriverFields(form)
        do {
            guard let target = BookingState(rawValue: form["status"] ?? "") else {
                throw ConciergeError(
                    .invalidInput, code: "invalid_request", message: rides.text("ops_pick_step", visit))
            }
            // The audit names the step, not the driver: the log holds no personal data.
            let moved = try await web.operatorAction(
                visit, "rides.move", subject: reference, detail: "to \(target.rawValue)"
            ) {
                try await rides.bookings.advance(
                    reference: reference, to: target, driver: target == .driverAssigned ? typed.driver : nil)
            }
            return web.redirect("/ops/rides/\(moved.reference)?moved=\(target.rawValue)", visit: visit)
        } catch let refusal as ConciergeError where refusal.category != .notFound {
            let booking = try await rides.bookings.adminBooking(reference: reference)
            var errors = RidesPageErrors()
            if refusal.code == "driver_required" {
                let message = rides.sentence(refusal, visit)
                for (name, value) in typed.fields where value.isEmpty { errors.add(message, field: "driver_\(name)") }
                errors.add(message, field: "driver")
            } else {
                errors.add(rides.sentence(refusal, visit), field: nil)
            }
            return try await ridePage(
                visit, booking: booking, driver: typed, notice: nil, errors: errors,
                status: RidesWebPages.status(of: refusal))
        }
    }

    // MARK: The page

    private func ridePage(
        _ visit: WebVisit, booking: Booking, driver typed: DriverFields?, notice: String?, errors: RidesPageErrors,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let view = RidesBookingView(rides: rides, visit: visit)
        let next = RideProgress.next[booking.state] ?? []
        let shown = typed ?? DriverFields(booking.driver)
        var data = errors.context
        data["ride"] = view.context(booking)
        data["canAssign"] = next.contains(.driverAssigned)
        // A ride still without a driver, or a refused assignment, shows the form open.
        data["assignOpen"] = booking.driver == nil || typed != nil
        data["assignLabel"] = rides.text(booking.driver == nil ? "ops_assign" : "ops_reassign", visit)
        data["driverFields"] = shown.fields.map { name, value in
            var field: [String: Any] = [
                "name": name, "id": "driver_\(name)", "value": value,
                "label": rides.text("ops_driver_\(name)", visit),
                "type": name == "phone" ? "tel" : "text",
            ]
            if let message = errors.byField["driver_\(name)"] { field["error"] = message }
            return field
        }
        // The steps after the driver, in the ride's order.
        let order: [BookingState] = [.enRoute, .arrived, .onBoard, .completed, .noShow]
        data["steps"] = order.filter(next.contains).map { state in
            [
                "value": state.rawValue,
                "label": rides.text("ops_step_\(state.rawValue)", visit),
                "danger": state == .noShow,
            ] as [String: Any]
        }
        data["hasSteps"] = !(data["steps"] as? [Any] ?? []).isEmpty
        data["finished"] = next.isEmpty
        data["events"] = try await rides.bookings.events(of: booking).map { event in
            [
                "at": WebFormat.dateTime(event.at, visit.language), "type": event.type, "actor": event.actor,
                "detail": event.detail,
            ]
        }
        if let notice { data["notice"] = notice }
        return web.page(
            "ops/rides-ride",
            title: rides.text("ops_ride_title", visit, ["reference": booking.reference]),
            data: data, visit: visit, status: status, styles: ["rides.css"])
    }
}

/// The driver as the operator typed it, kept when the step is refused.
struct DriverFields {
    let fields: [(String, String)]

    init(_ form: WebForm) {
        fields = ["name", "phone", "vehicle", "plate"].map { ($0, String((form["driver_\($0)"] ?? "").prefix(100))) }
    }

    init(_ driver: Driver?) {
        fields = [
            ("name", driver?.name ?? ""), ("phone", driver?.phone ?? ""), ("vehicle", driver?.vehicle ?? ""),
            ("plate", driver?.plate ?? ""),
        ]
    }

    var driver: Driver {
        let value = Dictionary(uniqueKeysWithValues: fields)
        return Driver(
            name: value["name"] ?? "", phone: value["phone"] ?? "", vehicle: value["vehicle"] ?? "",
            plate: value["plate"] ?? "")
    }
}
