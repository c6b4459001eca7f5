public import Foundation

/// How to draw an attachment's PNG instead of its bytes: a QR code of `payload` at an error
/// correction level, `moduleSize` pixels per module. Drawing a ticket's code is most of a seat
/// order's CPU, so a message carries the recipe through the payment and the outbox, and only an
/// email provider that sends the bytes draws them (the dev outbox keeps names and never does).
public struct QRCodePNGRecipe: Sendable, Equatable {
    /// Pixels per module a recipe may ask for: enough for print, small enough that a stored
    /// recipe cannot ask for a huge image.
    public static let moduleSizes = 1...32

    public let payload: String
    public let errorCorrection: QRCode.ErrorCorrection
    public let moduleSize: Int

    /// Nil when the payload does not fit the largest QR code at that level or the module size is
    /// out of range: a recipe that exists can be drawn. The capacity check is a table look-up,
    /// not a drawing.
    public init?(payload: String, errorCorrection: QRCode.ErrorCorrection, moduleSize: Int) {
        guard Self.moduleSizes.contains(moduleSize),
            payload.utf8.count <= QRCode.capacity(version: 40, errorCorrection: errorCorrection)
        else { return nil }
        self.payload = payload
        self.errorCorrection = errorCorrection
        self.moduleSize = moduleSize
    }

    /// The PNG, the same bytes as `QRCode(text:errorCorrection:).png(moduleSize:)`.
    public func render() throws -> Data {
        do {
            return Data(try QRCode(text: payload, errorCorrection: errorCorrection).png(moduleSize: moduleSize))
        } catch {
            // Unreachable for a recipe that passed its init; permanent if it ever happens, so the
            // outbox stops retrying a message that can never be drawn.
            throw ConciergeError(
                .invalidInput, code: "attachment_not_drawable",
                message: "An email attachment's QR code could not be drawn: \(error).")
        }
    }
}
