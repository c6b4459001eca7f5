import Testing

@testable import ConciergeServer

@Suite struct OpenAPIFragmentsTests {
    @Test func aFragmentsPathsAndComponentsLandInTheirSections() {
        let document = """
            openapi: 3.1.0
            paths:
              /health:
                get: {}
            components:
              schemas:
                Error:
                  type: object
              responses:
                Error:
                  description: failed
            """
        let fragment = """
            # rides
            paths:
              /rides/pricing:
                get: {}
            components:
              schemas:
                Booking:
                  type: object
              responses:
                Profile:
                  description: a profile
            """
        let merged = OpenAPIFragmentMerger.merge(fragment, into: document)
        #expect(
            merged == """
                openapi: 3.1.0
                paths:
                  /health:
                    get: {}
                  /rides/pricing:
                    get: {}
                components:
                  schemas:
                    Error:
                      type: object
                    Booking:
                      type: object
                  responses:
                    Error:
                      description: failed
                    Profile:
                      description: a profile
                """)
    }

    @Test func theServedDocumentHasEveryRidesPathOnceAndTheRidesSchemas() throws {
        let text = try OpenAPIDocument.text()
        let paths = text.split(separator: "\n").filter { $0.hasPrefix("  /") }.map {
            String($0.dropFirst(2).dropLast())
        }
        #expect(Set(paths).count == paths.count)
        for path in [
            "/rides/sms-code-send", "/rides/sms-code-verify", "/rides/logout", "/rides/me",
            "/rides/places/autocomplete", "/rides/places/{placeId}", "/rides/pricing", "/rides/app-book",
            "/rides/bookings", "/rides/bookings/{reference}", "/rides/bookings/{reference}/cancel",
            "/rides/booking-confirmed", "/admin/bookings", "/health", "/payments/mollie/webhook",
        ] {
            #expect(paths.contains(path), "\(path) is missing")
        }
        let components = try #require(text.range(of: "\ncomponents:\n"))
        #expect(!text[components.upperBound...].contains("\npaths:"))
        #expect(text.contains("\n    BookingLocation:\n"))
        #expect(text.contains("\n    Profile:\n"))
    }
}
