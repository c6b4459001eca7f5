import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird
import NIOCore

/// `/stays/admin/…` (admin token): the stored hotel — settings, room types with their counts
/// and pictures, rates and closures — to read and change, the day's arrivals and departures,
/// and occupancy per night. Every change is checked as a whole hotel (400 per field) and
/// written under a lock; a room count below what is booked on a night ahead is a 409.
struct StaysAdminController {
    let desk: StaysFrontDesk
    let stays: StaysService
    let admin: StaysHotelAdmin
    let wire: StaysWire
    let token: String

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.group("admin")
            .add(middleware: AdminTokenMiddleware(token: token))
            .get("hotel", use: hotel)
            .patch("hotel", use: updateHotel)
            .get("room-types", use: roomTypes)
            .post("room-types", use: addRoomType)
            .get("room-types/:id", use: roomType)
            .patch("room-types/:id", use: updateRoomType)
            .put("room-types/:id/image", use: uploadImage)
            .get("rates", use: rates)
            .put("rates", use: updateRates)
            .get("closures", use: closures)
            .post("closures", use: addClosure)
            .delete("closures/:id", use: removeClosure)
            .get("arrivals", use: arrivals)
            .get("departures", use: departures)
            .get("occupancy", use: occupancy)
    }

    // MARK: The hotel

    @Sendable func hotel(request: Request, context: AppRequestContext) async throws -> Response {
        try StaysEnvelope.response(try await admin.hotel())
    }

    @Sendable func updateHotel(request: Request, context: AppRequestContext) async throws -> Response {
        let change = try await request.decodePatch(
            StaysHotelAdmin.SettingsChange.self, context: context, code: "validation")
        return try StaysEnvelope.response(try await admin.updateSettings(change), message: "Hotel settings saved.")
    }

    // MARK: Room types

    @Sendable func roomTypes(request: Request, context: AppRequestContext) async throws -> Response {
        try StaysEnvelope.response(try await admin.hotel().roomTypes)
    }

    @Sendable func roomType(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.id(context)
        guard let type = try await admin.hotel().roomType(id: id) else {
            throw ConciergeError(.notFound, code: "not_found", message: "There is no room type \(id) in this hotel.")
        }
        return try StaysEnvelope.response(type)
    }

    @Sendable func addRoomType(request: Request, context: AppRequestContext) async throws -> Response {
        let change = try await request.decodeJSON(StaysHotelAdmin.RoomTypeChange.self, context: context)
        let type = try await admin.addRoomType(change)
        return try StaysEnvelope.response(
            type, status: .created, message: "Room type \(type.id) (\(type.type)) added with \(type.rooms) rooms.")
    }

    @Sendable func updateRoomType(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.id(context)
        let change = try await request.decodePatch(
            StaysHotelAdmin.RoomTypeChange.self, context: context, code: "validation")
        let type = try await admin.updateRoomType(id: id, change)
        return try StaysEnvelope.response(type, message: "Room type \(type.id) (\(type.type)) saved.")
    }

    /// The picture as the request body (PNG, JPEG or WebP, at most 2 MB); served from then on
    /// under `/stays/images/{name}` as the type's `image`.
    @Sendable func uploadImage(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.id(context)
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: StaysHotelAdmin.maximumImageBytes)
        } catch {
            throw ConciergeError(
                .invalidInput, code: "image_too_large",
                message: "A picture is at most \(StaysHotelAdmin.maximumImageBytes / 1_048_576) MB.")
        }
        let type = try await admin.saveImage(roomTypeID: id, bytes: Data(buffer: buffer))
        return try StaysEnvelope.response(
            type, message: "Picture saved: \(wire.publicURL)/stays/images/\(type.image)")
    }

    // MARK: Rates

    @Sendable func rates(request: Request, context: AppRequestContext) async throws -> Response {
        try StaysEnvelope.response(Self.rates(of: try await admin.hotel()))
    }

    @Sendable func updateRates(request: Request, context: AppRequestContext) async throws -> Response {
        let change = try await request.decodeJSON(StaysHotelAdmin.RatesChange.self, context: context)
        return try StaysEnvelope.response(Self.rates(of: try await admin.updateRates(change)), message: "Rates saved.")
    }

    static func rates(of hotel: HotelSettings) -> StaysHotelAdmin.RatesChange {
        var rates = StaysHotelAdmin.RatesChange()
        rates.weekend = hotel.weekend
        rates.seasons = hotel.seasons
        rates.roomTypes = hotel.roomTypes.map { type in
            var rate = StaysHotelAdmin.RoomTypeChange()
            rate.id = type.id
            rate.type = type.type
            rate.baseRateCents = type.baseRateCents
            rate.minimumStay = type.minimumStay
            rate.paymentPolicy = type.paymentPolicy
            return rate
        }
        return rates
    }

    // MARK: Closures

    @Sendable func closures(request: Request, context: AppRequestContext) async throws -> Response {
        try StaysEnvelope.response(try await admin.hotel().closures)
    }

    @Sendable func addClosure(request: Request, context: AppRequestContext) async throws -> Response {
        let closure = try await request.decodeJSON(HotelSettings.Closure.self, context: context)
        let added = try await admin.addClosure(closure)
        return try StaysEnvelope.response(
            added, status: .created, message: "Closed from \(added.from) to \(added.to) (closure \(added.id ?? 0)).")
    }

    @Sendable func removeClosure(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.id(context)
        let hotel = try await admin.removeClosure(id: id)
        return try StaysEnvelope.response(hotel.closures, message: "Closure \(id) removed.")
    }

    // MARK: The front desk

    @Sendable func arrivals(request: Request, context: AppRequestContext) async throws -> Response {
        let hotel = try await stays.hotel()
        let night = try day(request, "date") ?? stays.today(in: hotel)
        let list = try await desk.arrivals(on: night)
        let free = try await stays.freeRooms(for: list.map(\.0), hotel: hotel)
        return try StaysEnvelope.response(
            list.map { wire.reservation($0.0, guest: $0.1, hotel: hotel, available: free[$0.0.id] ?? 0) })
    }

    @Sendable func departures(request: Request, context: AppRequestContext) async throws -> Response {
        let hotel = try await stays.hotel()
        let night = try day(request, "date") ?? stays.today(in: hotel)
        let list = try await desk.departures(on: night)
        let free = try await stays.freeRooms(for: list.map(\.0), hotel: hotel)
        return try StaysEnvelope.response(
            list.map { wire.reservation($0.0, guest: $0.1, hotel: hotel, available: free[$0.0.id] ?? 0) })
    }

    @Sendable func occupancy(request: Request, context: AppRequestContext) async throws -> Response {
        let hotel = try await stays.hotel()
        let first = try day(request, "from") ?? stays.today(in: hotel)
        let last = try day(request, "to") ?? first.adding(days: 29, in: hotel.calendar)
        let rows = try await desk.occupancy(from: first, to: last, hotel: hotel)
        let names = Dictionary(hotel.roomTypes.map { ($0.id, $0.type) }) { first, _ in first }
        return try StaysEnvelope.response(
            rows.map {
                Stays.OccupancyRow(
                    night: $0.night.description, roomTypeId: $0.roomTypeID, roomType: names[$0.roomTypeID] ?? "",
                    rooms: $0.rooms, booked: $0.booked, free: $0.free, held: $0.held)
            })
    }

    /// A `YYYY-MM-DD` query parameter; absent is nil, anything else a field error.
    private func day(_ request: Request, _ name: String) throws -> StayNight? {
        guard let text = request.uri.queryParameters[name[...]].map(String.init) else { return nil }
        guard let night = StayNight(text) else { throw StaysValidationError([name: "Give \(name) as YYYY-MM-DD."]) }
        return night
    }

    private static func id(_ context: AppRequestContext) throws -> Int64 {
        let text = try context.parameters.require("id")
        guard text.count <= 15, let id = Int64(text), id > 0 else {
            throw StaysValidationError(["id": "Give the id as a positive whole number."])
        }
        return id
    }
}
