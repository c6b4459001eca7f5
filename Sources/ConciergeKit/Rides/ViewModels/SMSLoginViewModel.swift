public import ConciergeModels
import Foundation
public import Observation

extension Rides {
    /// The state behind an SMS sign-in screen (the rides app's `SMSLoginView`): phone entry, sending
    /// the code, code entry with a resend countdown, and verification, which saves the session into
    /// the injected ``AuthenticationManager``.
    ///
    /// It holds no timers: the screen calls ``tick()`` once a second while it shows the code field,
    /// which counts ``resendCountdown`` down until ``canResend``.
    ///
    /// ```swift
    /// let login = SMSLoginViewModel(auth: .shared, manager: .shared)
    /// login.nationalNumber = "079 123 45 67"          // country defaults to Switzerland
    /// await login.sendCode()                          // state == .enteringCode, resendCountdown == 30
    /// login.code = "123456"                           // from the SMS
    /// await login.verify()                            // state == .signedIn, manager.isAuthenticated
    /// ```
    @Observable @MainActor public final class SMSLoginViewModel {
        /// Which step of the sign-in the screen shows.
        ///
        /// ```swift
        /// switch login.state {
        /// case .enteringPhone, .sendingCode, .failed: showPhoneField()
        /// case .enteringCode, .verifying: showCodeField()
        /// case .signedIn: dismiss()
        /// }
        /// ```
        public enum State: Sendable, Equatable {
            /// Waiting for the phone number.
            case enteringPhone
            /// The code is being requested.
            case sendingCode
            /// A code was sent; waiting for the customer to type it. A wrong code stays here, with
            /// ``SMSLoginViewModel/errorMessage`` saying what is wrong.
            case enteringCode
            /// The code is being checked.
            case verifying
            /// Signed in; the session is saved in the manager.
            case signedIn
            /// The code could not be sent (invalid number, too many requests, no connection);
            /// ``SMSLoginViewModel/errorMessage`` says why. Show the phone field again.
            case failed
        }

        /// The message shown when the typed number cannot be a phone number of ``country``.
        ///
        /// ```swift
        /// login.errorMessage == SMSLoginViewModel.enterNumberMessage
        /// ```
        public static let enterNumberMessage = "Please enter your mobile number, e.g. 079 123 45 67."

        /// The message shown when ``verify()`` is called without a code.
        ///
        /// ```swift
        /// login.errorMessage == SMSLoginViewModel.enterCodeMessage
        /// ```
        public static let enterCodeMessage = "Please enter the code from the SMS."

        /// The current step.
        ///
        /// ```swift
        /// if login.state == .signedIn { dismiss() }
        /// ```
        public private(set) var state: State = .enteringPhone

        /// The country whose calling code prefixes ``nationalNumber``; Switzerland by default.
        ///
        /// ```swift
        /// login.country = CountryCode.forRegion("DE") ?? .switzerland
        /// ```
        public var country: CountryCode = .switzerland

        /// The number as typed, in the country's national format ("079 123 45 67"); an
        /// international number ("+49 30 1234567") is accepted too.
        ///
        /// ```swift
        /// login.nationalNumber = "079 123 45 67"
        /// ```
        public var nationalNumber = ""

        /// The code from the SMS as typed.
        ///
        /// ```swift
        /// login.code = "123456"
        /// ```
        public var code = ""

        /// What went wrong last, worded for the customer; `nil` after a step succeeds.
        ///
        /// ```swift
        /// if let message = login.errorMessage { Text(message) }
        /// ```
        public private(set) var errorMessage: String?

        /// Seconds until a new code may be requested; ``tick()`` counts it down.
        ///
        /// ```swift
        /// Text(login.canResend ? "Send a new code" : "New code in \(login.resendCountdown) s")
        /// ```
        public private(set) var resendCountdown = 0

        /// The E.164 number the last code was sent to, e.g. "+41791234567".
        ///
        /// ```swift
        /// Text("We sent a code to \(login.sentPhone ?? "")")
        /// ```
        public private(set) var sentPhone: String?

        /// The signed-in customer once ``state`` is ``State/signedIn``.
        ///
        /// ```swift
        /// Text("Welcome \(login.customer?.name ?? "")")
        /// ```
        public private(set) var customer: AuthenticatedCustomer?

        private let auth: VeramoAuthService
        private let manager: AuthenticationManager

        /// Creates the model; pass services on a test server and an in-memory manager in tests.
        ///
        /// ```swift
        /// let login = SMSLoginViewModel(
        ///     auth: VeramoAuthService(client: client),
        ///     manager: AuthenticationManager(store: InMemorySessionStore()))
        /// ```
        public init(auth: VeramoAuthService = .shared, manager: AuthenticationManager = .shared) {
            self.auth = auth
            self.manager = manager
        }

        /// Whether a request is under way (sending or verifying).
        ///
        /// ```swift
        /// if login.isBusy { ProgressView() }
        /// ```
        public var isBusy: Bool { state == .sendingCode || state == .verifying }

        /// Whether a new code may be requested now: the countdown is over and nothing is under way.
        ///
        /// ```swift
        /// Button("Send a new code") { Task { await login.sendCode() } }.disabled(!login.canResend)
        /// ```
        public var canResend: Bool { resendCountdown == 0 && !isBusy && state != .signedIn }

        /// Whether the typed number is a phone number of ``country`` (the send button's state).
        ///
        /// ```swift
        /// Button("Send code") { … }.disabled(!login.canSendCode)
        /// ```
        public var canSendCode: Bool { canResend && country.e164(nationalNumber) != nil }

        /// Whether a code was typed and may be checked.
        ///
        /// ```swift
        /// Button("Verify") { … }.disabled(!login.canVerify)
        /// ```
        public var canVerify: Bool {
            sentPhone != nil && !isBusy && state != .signedIn
                && !code.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }

        /// Counts ``resendCountdown`` down by one second; call it once a second while the code
        /// field shows.
        ///
        /// ```swift
        /// .onReceive(Timer.publish(every: 1, on: .main, in: .common).autoconnect()) { _ in login.tick() }
        /// ```
        public func tick() {
            if resendCountdown > 0 { resendCountdown -= 1 }
        }

        /// Requests a code for ``nationalNumber`` in ``country`` (also used to resend). On success the
        /// state becomes ``State/enteringCode`` and ``resendCountdown`` the server's wait; on failure
        /// ``State/failed`` with ``errorMessage``. A number that cannot be a phone number fails
        /// locally, without a request. Does nothing while busy or before the countdown is over.
        ///
        /// ```swift
        /// await login.sendCode()
        /// ```
        public func sendCode() async {
            guard canResend else { return }
            guard let phone = country.e164(nationalNumber) else {
                errorMessage = Self.enterNumberMessage
                state = .failed
                return
            }
            state = .sendingCode
            errorMessage = nil
            do throws(BookingError) {
                let sent = try await auth.requestSMSCode(phone: phone)
                sentPhone = phone
                code = ""
                resendCountdown = max(0, sent.resendAfterSeconds)
                state = .enteringCode
            } catch {
                errorMessage = error.errorDescription
                state = .failed
            }
        }

        /// Checks ``code`` for the number it was sent to. On success saves the session into the
        /// manager and sets ``State/signedIn``; a wrong or expired code keeps
        /// ``State/enteringCode`` with the server's ``errorMessage``.
        ///
        /// ```swift
        /// login.code = "123456"
        /// await login.verify()
        /// ```
        public func verify() async {
            guard let phone = sentPhone, !isBusy, state != .signedIn else { return }
            let typed = code.filter { !$0.isWhitespace }
            guard !typed.isEmpty else {
                errorMessage = Self.enterCodeMessage
                return
            }
            state = .verifying
            errorMessage = nil
            do throws(BookingError) {
                let response = try await auth.verify(phone: phone, code: typed)
                manager.saveAuthentication(
                    customer: response.customer, sessionToken: response.sessionToken,
                    expiresAt: WireDate.date(from: response.expiresAt))
                customer = response.customer
                state = .signedIn
            } catch {
                errorMessage = error.errorDescription
                state = .enteringCode
            }
        }

        /// Goes back to the phone field to use another number; the resend countdown keeps running.
        ///
        /// ```swift
        /// Button("Change number") { login.changeNumber() }
        /// ```
        public func changeNumber() {
            guard !isBusy, state != .signedIn else { return }
            code = ""
            errorMessage = nil
            state = .enteringPhone
        }
    }
}
