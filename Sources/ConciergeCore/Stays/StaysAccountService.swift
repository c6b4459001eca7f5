import Foundation

/// Stays sign-up, sign-in and profile over the platform's accounts and sessions: a stays
/// account is a platform account with a user name (and an email), plus a guest profile with
/// the seed's integer `guestId`.
public struct StaysAccountService: Sendable {
    public struct SignedIn: Sendable {
        public let guest: StaysGuest
        public let session: IssuedSession
    }

    /// A new guest's profile, written in the same transaction as the platform account.
    public struct NewGuest: Sendable, Equatable {
        public let username: String
        public let firstName: String
        public let lastName: String
        public let email: String
        public let phone: String

        public init(username: String, firstName: String, lastName: String, email: String, phone: String) {
            self.username = username
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
            self.phone = phone
        }
    }

    let accounts: AccountService
    /// The platform's accounts over a store that writes `NewGuest`'s profile in the account's
    /// own transaction, so a registration is one commit: account, credentials and guest.
    let registering: @Sendable (NewGuest) -> AccountService
    let sessions: SessionService
    let store: any StaysStore
    let clock: any TimeSource

    public init(
        accounts: AccountService, registering: @escaping @Sendable (NewGuest) -> AccountService,
        sessions: SessionService, store: any StaysStore, clock: any TimeSource
    ) {
        self.accounts = accounts
        self.registering = registering
        self.sessions = sessions
        self.store = store
        self.clock = clock
    }

    /// Every broken rule is reported beside its field; a taken user name is a 409 on its field.
    /// A taken email is not told (finding 11 of the 2026-11-27 review): nothing is made, its
    /// owner is mailed, and the answer is the same valid details as for a new guest — so the
    /// caller's reply must not carry anything only a new account has (its guest number).
    /// Registration opens no session (the seed goes back to its login screen, where the guest
    /// signs in).
    public func register(
        username: String, firstName: String, lastName: String, email: String, phone: String, password: String,
        clientIP: String
    ) async throws -> NewGuest {
        let valid = try StaysRegistrationRules.validate(
            username: username, firstName: firstName, lastName: lastName, email: email, phone: phone,
            password: password)
        let newGuest = NewGuest(
            username: valid.username, firstName: valid.firstName, lastName: valid.lastName, email: valid.email,
            phone: valid.phone)
        do {
            _ = try await registering(newGuest).registerWithoutSession(
                email: valid.email, username: valid.username, password: password,
                name: "\(valid.firstName) \(valid.lastName)", clientIP: clientIP)
        } catch let error as ConciergeError where error == .usernameTaken {
            throw StaysValidationError(["username": error.message], conflict: true)
        } catch let error as ConciergeError where error.code == "weak_password" {
            throw StaysValidationError(["password": error.message])
        } catch let error as ConciergeError where error == .emailTaken {
            // Taken by a registration that committed in between: answered like any taken address.
            return newGuest
        }
        return newGuest
    }

    /// By user name or email address; one answer for both mistakes.
    public func login(username: String, password: String, clientIP: String) async throws -> SignedIn {
        let signedIn = try await accounts.signIn(login: username, password: password, clientIP: clientIP)
        return SignedIn(guest: try await guest(of: signedIn.account), session: signedIn.session)
    }

    /// With an ID token of any issuer the platform trusts (linking by a provider-verified email
    /// as the platform does); a new account's guest profile is made from what the token says.
    public func login(provider: IdentityProvider, idToken: String, nonce: String?, clientIP: String) async throws
        -> SignedIn
    {
        let signedIn = try await accounts.signIn(provider: provider, idToken: idToken, nonce: nonce, clientIP: clientIP)
        return SignedIn(guest: try await guest(of: signedIn.account), session: signedIn.session)
    }

    /// With the code sent to a phone (`SignInService.sendCode`): the phone's account, the same
    /// one rides signs in to, or a new one.
    public func login(phone: String, code: String, clientIP: String) async throws -> SignedIn {
        let signedIn = try await accounts.signIn(phone: phone, code: code, clientIP: clientIP)
        return SignedIn(guest: try await guest(of: signedIn.account), session: signedIn.session)
    }

    public func refresh(_ refreshToken: String) async throws -> SignedIn {
        let session = try await sessions.refresh(refreshToken)
        return SignedIn(guest: try await guest(accountID: session.session.accountID), session: session)
    }

    /// The guest profile of a signed-in account. An account made elsewhere (a rides phone
    /// sign-in, an events email) gets one on its first stays request, from what it has.
    public func guest(accountID: String) async throws -> StaysGuest {
        if let guest = try await store.guest(accountID: accountID) { return guest }
        return try await guest(of: try await accounts.account(id: accountID))
    }

    private func guest(of account: AccountOverview) async throws -> StaysGuest {
        if let guest = try await store.guest(accountID: account.id) { return guest }
        let username = account.methods.first { $0.kind == .username }?.identifier ?? account.id.lowercased()
        let email = account.methods.first { $0.kind == .email }?.identifier ?? ""
        let phone = account.methods.first { $0.kind == .phone }?.identifier ?? ""
        let names = (account.displayName ?? "").split(separator: " ", maxSplits: 1).map(String.init)
        return try await store.ensureGuest(
            accountID: account.id, username: username, firstName: names.first ?? "",
            lastName: names.dropFirst().first ?? "",
            email: email, phone: phone, at: clock.now)
    }

    /// Whether the account has proved an email address (pay-at-hotel reservations need one).
    public func hasVerifiedEmail(accountID: String) async throws -> Bool {
        !(try await accounts.account(id: accountID).verifiedEmails.isEmpty)
    }

    public func updateProfile(guest: StaysGuest, firstName: String?, lastName: String?, phone: String?) async throws
        -> StaysGuest
    {
        var fields: [String: String] = [:]
        let first = firstName.map { StaysRegistrationRules.name($0, field: "firstName", into: &fields) }
        let last = lastName.map { StaysRegistrationRules.name($0, field: "lastName", into: &fields) }
        let number = phone.map { StaysRegistrationRules.phone($0, into: &fields) }
        guard fields.isEmpty else { throw StaysValidationError(fields) }
        guard
            let updated = try await store.updateGuest(
                guestID: guest.guestID, firstName: first, lastName: last, phone: number)
        else { throw ConciergeError.sessionExpired }
        return updated
    }
}
