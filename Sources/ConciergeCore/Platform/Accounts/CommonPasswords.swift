/// A short static list of passwords of 10+ characters of the kind that lead public
/// breach-frequency lists (keyboard walks, digit runs, "password123", names plus digits), with a
/// few local variants. Not a breach corpus: it stops the first guesses an attacker tries, and
/// shorter common passwords are refused by length already. Compared case-insensitively.
enum CommonPasswords {
    static func contains(_ password: String) -> Bool {
        list.contains(password.lowercased())
    }

    static let list: Set<String> = [
        "1234567890", "12345678910", "123456789a", "1234567891", "0123456789", "0987654321",
        "1111111111", "0000000000", "1q2w3e4r5t", "1q2w3e4r5t6y", "qwertyuiop", "qwerty1234",
        "qwerty12345", "qwerty123456", "1qaz2wsx3edc", "zaq12wsxcde3", "asdfghjkl1", "zxcvbnm123",
        "password12", "password123", "password1234", "passw0rd123", "password!", "password01",
        "iloveyou12", "iloveyou123", "princess12", "sunshine12", "football12", "baseball12",
        "basketball", "superman12", "michael123", "charlie123", "welcome123", "welcome1234",
        "letmein123", "trustno1234", "abcdefghij", "abcdefg123", "abc1234567", "aa12345678",
        "a123456789", "q1w2e3r4t5", "q1w2e3r4t5y6", "1a2b3c4d5e", "123qweasdzxc", "1234qwerasdf",
        "11223344556", "1122334455", "5555555555", "9876543210", "123123123123", "1231231231",
        "1234512345", "12344321ab", "monkey1234", "dragon1234", "master1234", "shadow1234",
        "starwars12", "pokemon123", "computer12", "internet12", "changeme123", "administrator",
        "adminadmin", "admin12345", "admin123456", "rootroot12", "concierge1", "concierge123",
        "qwertyqwerty", "asdfasdfasdf", "passwordpassword", "whatever12", "liverpool1",
        "chocolate1", "butterfly1", "jordan2323", "michelle12", "nicole1234", "jennifer12",
        "1234567890q", "qazwsxedcrfv", "iloveyou1234", "myspace123", "samsung123", "google1234",
        "zaq1zaq1zaq1", "1qazxsw23edc", "azertyuiop", "motdepasse", "passwort123", "hallo12345",
        "gruezi1234", "schweiz123", "zuerich123",
    ]
}
