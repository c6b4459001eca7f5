import ConciergeCore
import Testing

@Suite struct PricingMoneyTests {
    @Test(arguments: [
        (9500, "CHF 95.00"), (0, "CHF 0.00"), (5, "CHF 0.05"), (10, "CHF 0.10"), (95, "CHF 0.95"),
        (123_450, "CHF 1234.50"), (100_000_000, "CHF 1000000.00"), (10_125, "CHF 101.25"),
    ])
    func amountsAreFrancsWithTwoDecimalsAndNoThousandsSeparator(cents: Int, text: String) {
        #expect(Money.formatCHF(cents) == text)
    }
}
