extension EventsService {
    /// The box office's view of orders: newest first, of one show or in one state when asked.
    public func orders(showID: String?, state: EventBooking.State?, limit: Int, offset: Int) async throws
        -> [BookingView]
    {
        if let showID { _ = try await show(id: showID) }  // an unknown show is 404, not an empty list
        var views: [BookingView] = []
        for booking in try await store.orders(showID: showID, state: state, limit: limit, offset: offset) {
            views.append(try await view(booking))
        }
        return views
    }

    /// One order with its door scans.
    public func order(id: String) async throws -> (view: BookingView, checkIns: [SeatCheckIn]) {
        guard let booking = try await store.booking(orderID: id) else {
            throw ConciergeError(.notFound, code: "order_not_found", message: "There is no such order.")
        }
        return (try await view(booking), try await store.checkIns(orderID: id))
    }
}
