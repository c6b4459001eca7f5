public import ConciergeModels
import Foundation
public import Observation

extension Stays {
    /// The state behind the login screen: user name or email, password, and the outcome.
    ///
    /// ```swift
    /// let login = Stays.LoginViewModel(api: api)
    /// login.username = "anna.m"; login.password = "correct horse battery"
    /// await login.login()   // login.user is set, or login.errorMessage
    /// ```
    @Observable @MainActor public final class LoginViewModel {
        public var username = ""
        public var password = ""
        public private(set) var isLoading = false
        public private(set) var errorMessage: String?
        /// Set once signed in; the tokens are in the API's token store.
        public private(set) var user: Stays.User?
        private let api: StaysAPI

        public init(api: StaysAPI) { self.api = api }

        public var canSubmit: Bool { !username.isEmpty && !password.isEmpty && !isLoading }

        public func login() async {
            isLoading = true
            defer { isLoading = false }
            switch await api.login(username: username, password: password) {
            case .success(let user):
                self.user = user
                errorMessage = nil
            case .failure(let failure):
                errorMessage = failure.message
            }
        }
    }

    /// The state behind the registration form, with a message beside each field the server (or
    /// the password confirmation) finds wrong.
    ///
    /// ```swift
    /// let form = Stays.RegisterViewModel(api: api)
    /// form.username = "anna.m"  // … every field
    /// await form.register()     // form.fieldErrors["email"], or form.registered == true
    /// ```
    @Observable @MainActor public final class RegisterViewModel {
        public var username = ""
        public var firstName = ""
        public var lastName = ""
        public var email = ""
        public var phone = ""
        public var password = ""
        public var passwordConfirmation = ""
        /// Field name → message, e.g. `["phone": "Enter the number with its country code…"]`.
        public private(set) var fieldErrors: [String: String] = [:]
        public private(set) var errorMessage: String?
        public private(set) var isLoading = false
        /// True once the account exists; go back to the login screen.
        public private(set) var registered = false
        private let api: StaysAPI

        public init(api: StaysAPI) { self.api = api }

        public func register() async {
            guard password == passwordConfirmation else {
                fieldErrors = ["passwordConfirmation": "The passwords do not match."]
                return
            }
            isLoading = true
            defer { isLoading = false }
            let form = Stays.RegisterRequest(
                username: username, firstName: firstName, lastName: lastName, email: email, phone: phone,
                password: password)
            switch await api.register(form) {
            case .success:
                registered = true
                fieldErrors = [:]
                errorMessage = nil
            case .failure(.validation(let fields, let message)):
                fieldErrors = fields
                errorMessage = message
            case .failure(let failure):
                fieldErrors = [:]
                errorMessage = failure.message
            }
        }
    }
}
