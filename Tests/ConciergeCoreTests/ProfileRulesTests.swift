import ConciergeCore
import Testing

@Suite struct ProfileRulesTests {
    @Test func namesAreTrimmedAndLimitedToOneHundredCharacters() throws {
        #expect(try ProfileRules.validName("  Zoë Müller ") == "Zoë Müller")
        #expect(try ProfileRules.validName(String(repeating: "a", count: 100)).count == 100)
        for bad in ["", "   ", String(repeating: "a", count: 101), "Anna\nMuster"] {
            #expect(throws: ConciergeError.self) { try ProfileRules.validName(bad) }
        }
    }

    @Test(arguments: ["anna@example.ch", "anna.muster+rides@mail.example.co.uk", "A@B.CH"])
    func plausibleEmailsAreAccepted(email: String) throws {
        _ = try ProfileRules.validEmail(email)
    }

    @Test(arguments: [
        "anna", "anna@", "@example.ch", "anna@example", "anna@@example.ch", "an na@example.ch", "anna@example..ch",
        "anna@-example.ch", "anna@example.c0m",
    ])
    func implausibleEmailsAreRejected(email: String) {
        #expect(throws: ConciergeError.self) { try ProfileRules.validEmail(email) }
    }

    @Test func theDomainIsLowerCasedAndTheLocalPartKept() throws {
        #expect(try ProfileRules.validEmail("Anna.Muster@Example.CH") == "Anna.Muster@example.ch")
    }
}
