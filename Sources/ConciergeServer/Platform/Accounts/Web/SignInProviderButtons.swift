import ConciergeCore

/// "Continue with Apple/Google" for any sign-in page: the platform's `/account` pages and a
/// vertical's own sign-in page (stays) offer the same buttons, which lead through the platform's
/// provider pages and come back to `next`. In dev mode they go through the dev identity
/// provider's page; otherwise through the providers' redirect flow when their client ids are
/// configured (for signing in only: the cross-site callback does not carry the session cookie a
/// link needs). The markup is the `account/sign-in-choices` partial.
struct SignInProviderButtons: Sendable {
    let web: WebFrontEnd
    /// The dev identity provider's page is mounted (dev mode with the provider).
    let devProvider: Bool
    /// The redirect flow's client ids, nil when the provider is not configured.
    let appleClientID: String?
    let googleClientID: String?

    init(web: WebFrontEnd, devProvider: Bool, appleClientID: String?, googleClientID: String?) {
        self.web = web
        self.devProvider = web.isDev && devProvider
        self.appleClientID = appleClientID
        self.googleClientID = googleClientID
    }

    /// The buttons as the platform's pages are built with them.
    init(platform: PlatformServices) {
        self.init(
            web: platform.web, devProvider: platform.devIdentity != nil,
            appleClientID: platform.configuration.accounts.appleAudiences.first,
            googleClientID: platform.configuration.accounts.googleAudiences.first)
    }

    /// Each button's provider, address and words; `intent` is "sign-in" or "link".
    func buttons(language: WebLanguage, next: String?, intent: String) -> [[String: String]] {
        let providers: [(IdentityProvider, String?, String, String)] = [
            (.apple, appleClientID, "continue_apple", "link_apple"),
            (.google, googleClientID, "continue_google", "link_google"),
        ]
        return providers.compactMap { provider, clientID, signInKey, linkKey in
            var href: String
            if devProvider {
                href = "/account/social/dev?provider=\(provider.rawValue)&intent=\(intent)"
            } else if intent == "sign-in", clientID != nil {
                href = "/account/social/start?provider=\(provider.rawValue)"
            } else {
                return nil
            }
            if let next { href += "&next=" + WebFrontEnd.queryEscaped(next) }
            return [
                "provider": provider.rawValue, "href": href,
                "label": web.strings.text("account", intent == "link" ? linkKey : signInKey, language),
            ]
        }
    }

    /// What the `account/sign-in-choices` partial reads: `social` and `hasSocial`.
    func data(language: WebLanguage, next: String?) -> [String: Any] {
        let social = buttons(language: language, next: next, intent: "sign-in")
        return ["social": social, "hasSocial": !social.isEmpty]
    }
}
