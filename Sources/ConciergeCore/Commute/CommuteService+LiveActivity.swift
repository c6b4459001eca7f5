public import ConciergeModels
import Foundation

/// `PUT|DELETE /commute/trips/{id}/live-activity`: the app's Live Activity token for one trip.
extension CommuteService {
    static let liveActivityNotFound = ConciergeError(
        .notFound, code: "live_activity_not_found",
        message: "The trip has no Live Activity registered. Register one with PUT /commute/trips/{id}/live-activity.")

    public func registerLiveActivity(tripID: String, accountID: String, input: CommuteLiveActivityInput)
        async throws -> CommuteLiveActivity
    {
        let trip = try await trip(id: tripID, accountID: accountID)
        guard ["sandbox", "production"].contains(input.environment) else {
            throw TripRules.invalid("'environment' must be sandbox or production.")
        }
        // ActivityKit's push token is bytes the app sends in hex (longer than a device token;
        // Apple says not to assume a length).
        let token = input.token
        guard (16...400).contains(token.count), token.count.isMultiple(of: 2),
            token.allSatisfy({ $0.isASCII && $0.isHexDigit })
        else {
            throw TripRules.invalid(
                "'token' must be the Live Activity push token (Activity.pushTokenUpdates) in hex, 16 to 400 digits.")
        }
        // The scheduler drives the activity; it runs only for trips with notices on.
        guard trip.notify.enabled else {
            throw ConciergeError(
                .conflict, code: "notifications_disabled",
                message:
                    "The trip's notices are off, so nothing would update its Live Activity. Turn notify.enabled on.")
        }
        let now = clock.now
        let registration = LiveActivityRegistration(
            tripID: trip.id, accountID: accountID, token: token.lowercased(), environment: input.environment,
            createdAt: now)
        try await store.upsertLiveActivity(registration)
        // Checked at once: registered in the trip's last hour, the activity gets the current
        // state without waiting for the next re-plan.
        try await store.setNextCheck(tripID: trip.id, at: now)
        return CommuteLiveActivity(
            tripId: trip.id, token: registration.token, environment: registration.environment,
            createdAt: WireDate.string(from: now))
    }

    public func unregisterLiveActivity(tripID: String, accountID: String) async throws {
        _ = try await trip(id: tripID, accountID: accountID)
        guard try await store.deleteLiveActivity(tripID: tripID) else { throw Self.liveActivityNotFound }
    }
}
