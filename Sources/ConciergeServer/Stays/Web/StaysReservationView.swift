import ConciergeCore
import Foundation

/// A reservation as the guest's pages show it: the room, the nights, the price, how it is paid,
/// where it stands, and what cancelling it would give back now under the hotel's policy.
struct StaysReservationView {
    let view: StaysWebView
    let policy: StayCancellationPolicy
    let now: Date

    private var hotel: HotelSettings { view.hotel }

    /// A line of the reservations list.
    func summary(_ record: StaysReservationRecord) -> [String: Any] {
        let type = hotel.roomType(id: record.roomTypeID)
        var data: [String: Any] = [
            "id": String(record.id), "href": "/stays/reservations/\(record.id)",
            "type": type?.type ?? view.text("room_removed"), "code": record.confirmationCode,
            "dates": view.text(
                "from_to", ["from": view.night(record.checkIn), "to": view.night(record.checkOut)]),
            "people": view.people(record.people), "status": view.status(record.status),
            "statusClass": record.status.rawValue, "total": view.money(record.totalCents, currency: record.currency),
            "cancellable": isCancellable(record), "cancelHref": "/stays/reservations/\(record.id)/cancel",
            "cancelLabel": view.text("cancel_named", ["code": record.confirmationCode]),
        ]
        if let type {
            data["image"] = "/stays/images/\(type.image)"
            data["imageAlt"] = view.text("image_alt", ["type": type.type, "description": type.description])
        }
        return data
    }

    /// Everything about one reservation.
    func detail(_ record: StaysReservationRecord) -> [String: Any] {
        var data = summary(record)
        let nights = record.checkIn.days(to: record.checkOut, in: hotel.calendar)
        data["checkInText"] = view.text(
            "check_in_at", ["date": view.night(record.checkIn), "time": view.hour(hotel.checkInHour)])
        data["checkOutText"] = view.text(
            "check_out_at", ["date": view.night(record.checkOut), "time": view.hour(hotel.checkOutHour)])
        data["nightsText"] = view.nights(nights)
        data["accommodation"] = view.money(record.accommodationCents, currency: record.currency)
        data["cityTax"] = view.money(record.cityTaxCents, currency: record.currency)
        data["vat"] = view.text(
            "vat_contained", ["amount": view.money(record.vatIncludedCents, currency: record.currency)])
        data["payment"] = payment(record)
        data["policy"] = view.policy(
            checkIn: record.checkIn, freeHours: policy.freeHours, firstNightCents: record.firstNightCents,
            currency: record.currency)
        if !record.purpose.isEmpty { data["purpose"] = record.purpose }
        if record.status == .pendingPayment, let prepayment = record.prepayment, prepayment.expiresAt > now {
            data["pay"] = [
                "href": prepayment.checkoutURL,
                "until": view.dateTime(prepayment.expiresAt),
                "untilMillis": String(Int64(prepayment.expiresAt.timeIntervalSince1970 * 1000)),
                "left": Self.minutesAndSeconds(prepayment.expiresAt.timeIntervalSince(now)),
            ]
        }
        if record.status == .cancelled || record.status == .refunded {
            data["outcome"] = cancelledText(record)
        }
        return data
    }

    /// What a cancellation did: charged and refunded.
    func cancelledText(_ record: StaysReservationRecord) -> String {
        var parts: [String] = []
        if record.status == .refunded {
            parts.append(view.text("refunded_in_full", ["amount": money(record.refundedCents, record)]))
            return parts.joined(separator: " ")
        }
        parts.append(
            record.chargedCents > 0
                ? view.text("cancelled_charged", ["amount": money(record.chargedCents, record)])
                : view.text("cancelled_free"))
        if record.refundedCents > 0 {
            parts.append(view.text("cancelled_refunded", ["amount": money(record.refundedCents, record)]))
        }
        return parts.joined(separator: " ")
    }

    /// What cancelling now gives back, under the policy, before the guest confirms; nil when it
    /// cannot be cancelled (and why, as `refusal`).
    func cancellationPreview(_ record: StaysReservationRecord) -> [String: Any] {
        switch record.status {
        case .pendingPayment:
            return ["text": view.text("preview_unpaid"), "possible": true]
        case .confirmed:
            break
        case .cancelled:
            return ["text": view.message(ConciergeError.staysAlreadyCancelled.message), "possible": false]
        case .expired, .refunded:
            return ["text": view.text("preview_not_cancellable"), "possible": false]
        }
        let checkInAt = record.checkIn.date(hour: hotel.checkInHour, in: hotel.calendar)
        let outcome: StayCancellationPolicy.Outcome
        do {
            outcome = try policy.outcome(checkInAt: checkInAt, firstNightCents: record.firstNightCents, now: now)
        } catch {
            return ["text": view.message(error.message), "possible": false]
        }
        let charged: Int
        switch outcome {
        case .free: charged = 0
        case .firstNightCharged(let cents): charged = cents
        }
        let text: String
        if record.paidAt != nil {
            let back = max(0, record.totalCents - charged)
            text =
                charged == 0
                ? view.text("preview_paid_free", ["amount": money(back, record)])
                : view.text("preview_paid_late", ["amount": money(back, record), "kept": money(charged, record)])
        } else {
            text =
                charged == 0
                ? view.text("preview_free") : view.text("preview_late", ["amount": money(charged, record)])
        }
        return ["text": text, "possible": true, "late": charged > 0]
    }

    func isCancellable(_ record: StaysReservationRecord) -> Bool {
        guard record.status == .confirmed || record.status == .pendingPayment else { return false }
        return now < record.checkIn.date(hour: hotel.checkInHour, in: hotel.calendar)
    }

    private func payment(_ record: StaysReservationRecord) -> String {
        if let paidAt = record.paidAt {
            return view.text("paid_online_at", ["date": view.dateTime(paidAt)])
        }
        if record.paymentPolicy == .prepay {
            return view.text(record.status == .pendingPayment ? "payment_waiting" : "payment_none")
        }
        return view.text("pay_at_hotel_text", ["total": money(record.totalCents, record)])
    }

    private func money(_ cents: Int, _ record: StaysReservationRecord) -> String {
        view.money(cents, currency: record.currency)
    }

    static func minutesAndSeconds(_ interval: TimeInterval) -> String {
        let seconds = max(0, Int(interval))
        let rest = seconds % 60
        return "\(seconds / 60):\(rest < 10 ? "0" : "")\(rest)"
    }
}
