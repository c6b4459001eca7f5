import ConciergeCore
import ConciergeModels
import Foundation

/// Domain values as the seed's wire types.
struct StaysWire: Sendable {
    let policy: StayCancellationPolicy
    let publicURL: String

    func profile(_ guest: StaysGuest) -> Stays.Profile {
        Stays.Profile(
            username: guest.username, firstName: guest.firstName, lastName: guest.lastName, email: guest.email,
            phone: guest.phone, guestId: guest.guestID)
    }

    /// The register answer: what was registered, without a guest number — a taken address makes
    /// no guest, and the answer must not tell the two apart (the number comes with the sign-in).
    func registered(_ guest: StaysAccountService.NewGuest) -> Stays.Profile {
        Stays.Profile(
            username: guest.username, firstName: guest.firstName, lastName: guest.lastName, email: guest.email,
            phone: guest.phone, guestId: 0)
    }

    func user(_ signedIn: StaysAccountService.SignedIn, now: Date) -> Stays.User {
        Stays.User(
            username: signedIn.guest.username, guestId: Int64(signedIn.guest.guestID),
            token: signedIn.session.accessToken, refreshToken: signedIn.session.refreshToken ?? "",
            expiresIn: max(0, Int(signedIn.session.accessExpiresAt.timeIntervalSince(now).rounded())))
    }

    func room(_ type: HotelSettings.RoomType, quote: StayQuote, available: Int, hotel: HotelSettings)
        -> Stays.RoomHotel
    {
        Stays.RoomHotel(
            id: type.id, description: type.description, roomType: type.type,
            pathImage: "\(publicURL)/stays/images/\(type.image)", peopleQuantity: type.capacity,
            price: HotelSettings.amount(quote.averageNightlyCents), nights: quote.nights,
            totalPrice: HotelSettings.amount(quote.totalCents), taxPrice: HotelSettings.amount(quote.cityTaxCents),
            available: available, cancellationPolicy: policy.summary, paymentPolicy: type.paymentPolicy.rawValue,
            currency: hotel.currency, priceCents: quote.averageNightlyCents, totalPriceCents: quote.totalCents,
            taxPriceCents: quote.cityTaxCents)
    }

    /// `available` is how many rooms of its type are free for its nights now
    /// (`StaysService.freeRooms`).
    func reservation(_ record: StaysReservationRecord, guest: StaysGuest, hotel: HotelSettings, available: Int)
        -> Stays.Reservation
    {
        let calendar = hotel.calendar
        let nights = record.checkIn.days(to: record.checkOut, in: calendar)
        let type =
            hotel.roomType(id: record.roomTypeID)
            ?? HotelSettings.RoomType(
                id: record.roomTypeID, type: "Room", description: "A room type the hotel no longer offers.",
                capacity: record.people, rooms: 0, baseRateCents: max(1, record.firstNightCents), image: "room.svg")
        let average = nights == 0 ? 0 : Int((Double(record.accommodationCents) / Double(nights)).rounded())
        let room = Stays.RoomHotel(
            id: type.id, description: type.description, roomType: type.type,
            pathImage: "\(publicURL)/stays/images/\(type.image)", peopleQuantity: type.capacity,
            price: HotelSettings.amount(average), nights: nights, totalPrice: HotelSettings.amount(record.totalCents),
            taxPrice: HotelSettings.amount(record.cityTaxCents), available: available,
            cancellationPolicy: policy.summary,
            paymentPolicy: record.paymentPolicy.rawValue, currency: record.currency, priceCents: average,
            totalPriceCents: record.totalCents, taxPriceCents: record.cityTaxCents)
        return Stays.Reservation(
            id: record.id,
            guest: Stays.Customer(
                id: guest.guestID, firstName: guest.firstName, lastName: guest.lastName, email: guest.email,
                phone: guest.phone),
            roomHotel: room, checkIn: Self.millis(record.checkIn.date(hour: hotel.checkInHour, in: calendar)),
            checkOut: Self.millis(record.checkOut.date(hour: hotel.checkOutHour, in: calendar)),
            purpose: record.purpose, guests: record.people, price: HotelSettings.amount(record.accommodationCents),
            taxPrice: HotelSettings.amount(record.cityTaxCents), totalPrice: HotelSettings.amount(record.totalCents),
            status: record.status.rawValue, confirmationCode: record.confirmationCode,
            cancellationPolicy: policy.summary, currency: record.currency, priceCents: record.accommodationCents,
            taxPriceCents: record.cityTaxCents, totalPriceCents: record.totalCents,
            vatIncludedCents: record.vatIncludedCents, paymentPolicy: record.paymentPolicy.rawValue,
            payment: record.prepayment.map { prepayment in
                Stays.ReservationPayment(
                    reference: prepayment.reference,
                    checkoutUrl: record.status == .pendingPayment ? prepayment.checkoutURL : nil,
                    payBy: Self.millis(prepayment.expiresAt), provider: prepayment.provider,
                    amount: HotelSettings.amount(record.totalCents), amountCents: record.totalCents,
                    currency: record.currency, paidAt: record.paidAt.map(Self.millis))
            }, refundedCents: record.refundedCents, chargedCents: record.chargedCents)
    }

    func cancellation(_ record: StaysReservationRecord, guest: StaysGuest, hotel: HotelSettings, available: Int)
        -> Stays.Cancellation
    {
        Stays.Cancellation(
            reservation: reservation(record, guest: guest, hotel: hotel, available: available),
            refunded: HotelSettings.amount(record.refundedCents), charged: HotelSettings.amount(record.chargedCents),
            refundedCents: record.refundedCents, chargedCents: record.chargedCents, currency: record.currency)
    }

    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}
