import ConciergeKit
import ConciergeModels
import Foundation

/// A door scan that was answered but refused, with what to print on standard output (the JSON
/// answer under `--json`), so scripts read the reason and still see a non-zero exit.
public struct EventsCheckInRefused: Error, CustomStringConvertible {
    public let output: String
    public var description: String { output }
}

extension EventsCommands {
    /// Admits a ticket's scan code at the door with a scanner token. The show is the one named
    /// in the code unless `showID` says which show this door admits to (then a ticket of another
    /// show is refused). A refusal throws: a one-line `CLIError`, or `EventsCheckInRefused` with
    /// the JSON answer.
    public func checkIn(code: String, showID: String?, gate: String?, scannerToken: String) async throws -> String {
        guard let show = showID ?? Self.showID(inCode: code) else {
            throw CLIError("'\(code)' is not a ticket's scan code; pass the show with --show to ask the server anyway")
        }
        let answer: Events.CheckInResponse
        do throws(EventsAPIError) {
            answer = try await client.checkIn(code: code, showID: show, gate: gate, scannerToken: scannerToken)
        } catch .unauthorized {
            throw CLIError(
                "the scanner token was refused — issue one with POST /events/api/admin/scanner-tokens, or use the admin token"
            )
        } catch .network {
            throw CLIError("the server cannot be reached — is it running? (set --server or CONCIERGE_SERVER)")
        } catch {
            throw CLIError(error.message)
        }
        if json {
            let output = try Self.encode(answer)
            guard answer.admitted else { throw EventsCheckInRefused(output: output) }
            return output
        }
        let seats = answer.seat.map { " \($0)" } ?? ""
        switch answer.result {
        case .ok:
            let attendee = answer.attendee.map { " (\($0))" } ?? ""
            return "Admitted\(seats)\(attendee) at gate \(gate ?? "main")."
        case .alreadyUsed:
            throw CLIError("not admitted:\(seats) already admitted at \(answer.firstScannedAt ?? "an earlier scan")")
        case .invalid: throw CLIError("not admitted: this code is not a valid ticket")
        case .wrongShow: throw CLIError("not admitted: this ticket is for another show, not \(show)")
        case .cancelled: throw CLIError("not admitted:\(seats) the booking was cancelled")
        }
    }

    /// The show a signed code names: `CEVT1.<order>.<show>.<seats>.<sig>` or
    /// `CEVS1.<order>.<show>.<seat>.<sig>`. Only the server's signature check says it is real.
    static func showID(inCode code: String) -> String? {
        let parts = code.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "CEVT1" || parts[0] == "CEVS1", !parts[2].isEmpty else { return nil }
        return String(parts[2])
    }
}
