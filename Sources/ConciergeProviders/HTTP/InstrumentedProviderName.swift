import Foundation

/// The short name a provider call is counted and traced under: the provider, not its host, so
/// `api.twilio.com` and `verify.twilio.com` are one line on a dashboard.
enum InstrumentedProviderName {
    static func of(url: String) -> String {
        guard let host = URLComponents(string: url)?.host?.lowercased(), !host.isEmpty else { return "unknown" }
        if let known = byHost[host] { return known }
        if host.hasSuffix(".twilio.com") { return "twilio" }
        if host.hasSuffix(".googleapis.com") { return "google" }
        if host.hasSuffix(".push.apple.com") { return "apns" }
        return host
    }

    private static let byHost: [String: String] = [
        "api.mollie.com": "mollie", "api.stripe.com": "stripe", "api.postmarkapp.com": "postmark",
        "api.weatherbit.io": "weatherbit", "api.open-meteo.com": "open-meteo", "api.mapbox.com": "mapbox",
    ]
}
