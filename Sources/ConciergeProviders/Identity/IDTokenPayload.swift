import Foundation
import JWTKit

/// The claims of an Apple, Google or OpenID Connect ID token that sign-in uses. Apple sends
/// `email_verified` as `"true"` or `true`; both are read. `verify(using:)` checks nothing:
/// `JWKSIDTokenVerifier` checks the claims against its injected clock after the signature.
struct IDTokenPayload: JWTPayload {
    var iss: String
    var sub: String
    var aud: AudienceClaim?
    /// Clerk's authorized party, checked instead of `aud` when the token has no audience.
    var azp: String?
    var exp: Date
    var nbf: Date?
    var iat: Date?
    var nonce: String?
    var email: String?
    var emailVerified: Bool
    var name: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, azp, exp, nbf, iat, nonce, email, name
        case emailVerified = "email_verified"
    }

    init(
        iss: String, sub: String, aud: [String], exp: Date, nbf: Date? = nil, iat: Date? = nil, nonce: String? = nil,
        email: String? = nil, emailVerified: Bool = false, name: String? = nil
    ) {
        self.iss = iss
        self.sub = sub
        self.aud = AudienceClaim(value: aud)
        self.exp = exp
        self.nbf = nbf
        self.iat = iat
        self.nonce = nonce
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        iss = try c.decode(String.self, forKey: .iss)
        sub = try c.decode(String.self, forKey: .sub)
        aud = try c.decodeIfPresent(AudienceClaim.self, forKey: .aud)
        azp = try c.decodeIfPresent(String.self, forKey: .azp)
        exp = Date(timeIntervalSince1970: try c.decode(Double.self, forKey: .exp))
        nbf = try c.decodeIfPresent(Double.self, forKey: .nbf).map(Date.init(timeIntervalSince1970:))
        iat = try c.decodeIfPresent(Double.self, forKey: .iat).map(Date.init(timeIntervalSince1970:))
        nonce = try c.decodeIfPresent(String.self, forKey: .nonce)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        if let flag = try? c.decodeIfPresent(Bool.self, forKey: .emailVerified) {
            emailVerified = flag
        } else {
            emailVerified = (try? c.decodeIfPresent(String.self, forKey: .emailVerified)) == "true"
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(iss, forKey: .iss)
        try c.encode(sub, forKey: .sub)
        try c.encodeIfPresent(aud, forKey: .aud)
        try c.encodeIfPresent(azp, forKey: .azp)
        try c.encode(Int(exp.timeIntervalSince1970), forKey: .exp)
        try c.encodeIfPresent(nbf.map { Int($0.timeIntervalSince1970) }, forKey: .nbf)
        try c.encodeIfPresent(iat.map { Int($0.timeIntervalSince1970) }, forKey: .iat)
        try c.encodeIfPresent(nonce, forKey: .nonce)
        try c.encodeIfPresent(email, forKey: .email)
        try c.encode(emailVerified, forKey: .emailVerified)
        try c.encodeIfPresent(name, forKey: .name)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
