import ConciergeProviders

/// The stays emails' Mustache templates, kept with the vertical (text parts `{{{triple}}}`,
/// HTML parts `{{double}}` so values are escaped).
enum StaysTemplates {
    static func make() throws -> MustacheMessageTemplates {
        try MustacheMessageTemplates(sources: sources)
    }

    static let sources: [String: String] = [
        "stays-confirmation.subject": "{{{hotel}}}: your stay from {{{checkIn}}} is confirmed ({{{code}}})",
        "stays-confirmation.text": """
        Hello {{{firstName}}},

        your reservation at {{{hotel}}} is confirmed.

        Confirmation: {{{code}}}
        Room: {{{roomType}}} for {{{people}}} guest(s)
        Check-in: {{{checkIn}}} from {{{checkInHour}}}
        Check-out: {{{checkOut}}} until {{{checkOutHour}}}
        Nights: {{{nights}}}

        Accommodation: {{{accommodation}}} (includes VAT {{{vat}}} at {{{vatPercent}}} %)
        City tax: {{{cityTax}}}
        Total: {{{total}}}, {{{payment}}}

        {{{policy}}}
        """,
        "stays-confirmation.html": """
        <p>Hello {{firstName}},</p><p>your reservation at <strong>{{hotel}}</strong> is confirmed.</p>
        <table><tr><th>Confirmation</th><td>{{code}}</td></tr><tr><th>Room</th><td>{{roomType}} for {{people}} guest(s)</td></tr>
        <tr><th>Check-in</th><td>{{checkIn}} from {{checkInHour}}</td></tr><tr><th>Check-out</th><td>{{checkOut}} until {{checkOutHour}}</td></tr>
        <tr><th>Nights</th><td>{{nights}}</td></tr><tr><th>Accommodation</th><td>{{accommodation}} (includes VAT {{vat}} at {{vatPercent}} %)</td></tr>
        <tr><th>City tax</th><td>{{cityTax}}</td></tr><tr><th>Total</th><td>{{total}}, {{payment}}</td></tr></table>
        <p>{{policy}}</p>
        """,
        "stays-late-refund.subject": "{{{hotel}}}: your payment for {{{code}}} is refunded",
        "stays-late-refund.text": """
        Hello {{{firstName}}},

        your payment for the stay {{{code}}} at {{{hotel}}} ({{{roomType}}}, {{{checkIn}}} to {{{checkOut}}}, order {{{reference}}}) arrived after the reservation could no longer be kept: its hold had lapsed and the nights went to another guest, or it had been cancelled.

        We have refunded all of it, {{{refunded}}}, to the way you paid. Nothing is reserved; search again for other dates or rooms.
        """,
        "stays-late-refund.html": """
        <p>Hello {{firstName}},</p><p>your payment for the stay {{code}} at <strong>{{hotel}}</strong> ({{roomType}}, {{checkIn}} to {{checkOut}}, order {{reference}}) arrived after the reservation could no longer be kept: its hold had lapsed and the nights went to another guest, or it had been cancelled.</p>
        <p>We have refunded all of it, <strong>{{refunded}}</strong>, to the way you paid. Nothing is reserved; search again for other dates or rooms.</p>
        """,
        "stays-cancellation.subject": "{{{hotel}}}: reservation {{{code}}} is cancelled",
        "stays-cancellation.text": """
        Hello {{{firstName}}},

        your reservation {{{code}}} at {{{hotel}}} ({{{roomType}}}, {{{checkIn}}} to {{{checkOut}}}) is cancelled.
        {{#charged}}Under the cancellation policy the first night, {{{charged}}}, is charged.{{/charged}}{{^charged}}Nothing is charged.{{/charged}}
        {{#refunded}}Refunded: {{{refunded}}}.{{/refunded}}

        {{{policy}}}
        """,
        "stays-cancellation.html": """
        <p>Hello {{firstName}},</p><p>your reservation {{code}} at <strong>{{hotel}}</strong> ({{roomType}}, {{checkIn}} to {{checkOut}}) is cancelled.</p>
        <p>{{#charged}}Under the cancellation policy the first night, {{charged}}, is charged.{{/charged}}{{^charged}}Nothing is charged.{{/charged}}
        {{#refunded}}Refunded: {{refunded}}.{{/refunded}}</p><p>{{policy}}</p>
        """,
    ]
}
