import ConciergeCore
import Foundation

/// An attachment's recipe as `outbox_attachments.recipe` keeps it, a small JSON object:
/// `{"errorCorrection":"M","kind":"qr-code-png","moduleSize":6,"payload":"CEVS1…"}`. The kind
/// leaves room for other recipes; a server that meets one it does not know, or a recipe that
/// could not be drawn, reports the row as corrupt instead of sending a broken email.
struct OutboxAttachmentRecipe: Codable, Equatable {
    static let qrCodePNG = "qr-code-png"

    let kind: String
    let payload: String
    let errorCorrection: String
    let moduleSize: Int

    init(_ recipe: QRCodePNGRecipe) {
        kind = Self.qrCodePNG
        payload = recipe.payload
        errorCorrection = recipe.errorCorrection.rawValue
        moduleSize = recipe.moduleSize
    }

    /// The recipe column's text for an attachment, nil for one that carries its bytes.
    static func column(for source: EmailAttachment.Source) throws -> String? {
        switch source {
        case .bytes: nil
        case .qrCodePNG(let recipe): try OutboxJSON.encode(OutboxAttachmentRecipe(recipe))
        }
    }

    /// The source a stored recipe stands for; nil when it names an unknown kind or cannot be drawn.
    static func source(fromColumn text: String) -> EmailAttachment.Source? {
        guard let stored: OutboxAttachmentRecipe = try? OutboxJSON.decode(text), stored.kind == qrCodePNG,
            let level = QRCode.ErrorCorrection(rawValue: stored.errorCorrection),
            let recipe = QRCodePNGRecipe(
                payload: stored.payload, errorCorrection: level, moduleSize: stored.moduleSize)
        else { return nil }
        return .qrCodePNG(recipe)
    }
}
