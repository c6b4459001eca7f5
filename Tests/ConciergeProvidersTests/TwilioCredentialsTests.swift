import ConciergeProviders
import Testing

@Suite struct TwilioCredentialsTests {
    @Test func credentialsBuildBasicAuthorizationHeader() {
        #expect(TwilioTestValues.credentials.basicAuthorizationHeaderValue == TwilioTestValues.expectedAuthorization)
    }

    @Test func credentialsNeverPrintTheirSecrets() {
        var dumped = ""
        dump(TwilioTestValues.credentials, to: &dumped)
        for text in [
            "\(TwilioTestValues.credentials)", String(reflecting: TwilioTestValues.credentials), dumped,
        ] {
            #expect(!text.contains(TwilioTestValues.authToken))
            #expect(!text.contains(TwilioTestValues.accountSID))
        }
    }
}
