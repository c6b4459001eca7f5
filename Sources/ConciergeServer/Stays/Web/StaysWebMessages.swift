/// The API's sentences (the stays and account services speak English) in the visitor's
/// language: English visitors read the API's own sentence; others read the translation of a
/// sentence the pages know by its beginning, with the number it named, or the English one.
enum StaysWebMessages {
    /// The beginning of a service's sentence and the key of its translation in `stays.json`.
    static let known: [(prefix: String, key: String)] = [
        ("Use 3 to 30 letters", "api_username_format"),
        ("This user name is reserved", "api_username_reserved"),
        ("This user name is taken", "api_username_taken"),
        ("Enter your first name", "api_first_name"),
        ("Enter your last name", "api_last_name"),
        ("Use at most 100 characters", "api_name_long"),
        ("Enter a valid email address", "api_email"),
        ("This email address is already registered", "api_email_taken"),
        ("Enter the number with its country code", "api_phone"),
        ("Choose a password of at least", "api_password_short"),
        ("Choose a password of at most", "api_password_long"),
        ("This password is one of the most common", "api_password_common"),
        ("The email, user name or password is not right", "api_invalid_credentials"),
        ("Give the check-in date", "api_check_in_missing"),
        ("Give the check-out date", "api_check_out_missing"),
        ("Check-in must be today", "api_check_in_past"),
        ("Reservations open", "api_too_far"),
        ("Check-out must be after check-in", "api_check_out_before"),
        ("A stay is at most", "api_too_long"),
        ("Choose between 1 and", "api_guests"),
        ("A party is at most", "api_party"),
        ("This room type is fully booked", "api_sold_out"),
        ("This stay has started or is over", "api_stay_started"),
        ("This reservation was cancelled already", "api_already_cancelled"),
        ("There is no such reservation", "api_no_reservation"),
    ]

    /// Sentences written for API clients (`YYYY-MM-DD or epoch milliseconds`), which the pages
    /// word for people in every language.
    static let reworded: Set<String> = ["api_check_in_missing", "api_check_out_missing"]

    static func text(_ english: String, web: WebFrontEnd, language: WebLanguage) -> String {
        guard let entry = known.first(where: { english.hasPrefix($0.prefix) }),
            language != .en || reworded.contains(entry.key)
        else { return english }
        let number = english.split(whereSeparator: { !$0.isNumber }).last.map(String.init) ?? ""
        return web.strings.text("stays", entry.key, language).replacingOccurrences(of: "{n}", with: number)
    }
}
