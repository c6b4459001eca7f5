import Foundation
import NIOCore

/// The OpenAPI description shipped with the server (`Resources/openapi.yaml`).
public enum OpenAPIDocument {
    public static func text() throws -> String {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func load() throws -> ByteBuffer {
        ByteBuffer(string: try text())
    }
}
