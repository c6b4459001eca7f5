import ConciergeCore
import ConciergeStore
import Hummingbird

/// A vertical — rides, events, stays, commute — as one module over the shared platform. It
/// declares everything the composition root needs, so adding a vertical is a folder per layer and
/// one line in `VerticalModules.all`, touching no other vertical.
protocol VerticalModule: Sendable {
    /// The vertical's name and path prefix, e.g. `rides` for `/rides/...`.
    var name: String { get }
    /// The module's own schema changes with their own version sequence, or nil when its tables
    /// predate modules (rides' are in the `core` history).
    var migrations: MigrationGroup? { get }
    /// The settings only this vertical reads (listed in `serve --help` and the settings table of docs/operators/configure.md).
    var configurationVariables: [ConfigurationVariable] { get }
    /// The vertical's part of `/openapi.yaml`: a resource file with `paths` (and `components`).
    var openAPIFragment: String { get }
    /// The error body of the vertical's contract; 404 and 405 under its prefix use it too.
    var errorRenderer: any ErrorRenderer { get }

    /// Builds the vertical's services on the platform's, adds its routes and returns what the
    /// platform runs for it.
    func mount(on router: Router<AppRequestContext>, platform: PlatformServices) async throws -> MountedVertical
}

/// What a mounted vertical hands back: its background jobs, the owner of its payments (the
/// one transition behind webhooks, return pages, the sandbox checkout and expiry), and the push
/// sender it configured (commute's Apple Push), which the outbox then uses for every push
/// message instead of the dev outbox; and, for a vertical that sells, its customer cancellation
/// for the operator's `/ops/orders`.
struct MountedVertical: Sendable {
    var jobs: [MaintenanceJob] = []
    var paymentOwner: (any PaymentOwner)?
    var pushSender: (any PushSender)?
    var orderCanceller: (any OrderCanceller)?
}

/// Every vertical the server runs, in mount order.
enum VerticalModules {
    static let all: [any VerticalModule] = [RidesModule(), StaysModule(), EventsModule(), CommuteModule()]
}
