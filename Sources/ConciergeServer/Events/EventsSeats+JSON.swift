import ConciergeModels
import NIOCore

/// `GET /events/api/shows/{id}/seats` answers every seat of the show (2,000 in a large hall), and
/// an app asks again while the buyer chooses. `JSONEncoder` was about 40 % of its work in the
/// seat-map benchmark, so the list is written directly, byte for byte as `Wire.encoder` writes it.
extension [Events.Seat] {
    var json: ByteBuffer {
        var writer = JSONWriter(capacity: 64 + 190 * count)
        writer.array(self) { json, seat in
            json.object { json in
                json.key("currency")
                json.string(seat.currency)
                if let heldByYou = seat.heldByYou {
                    json.key("heldByYou")
                    json.bool(heldByYou)
                }
                json.key("id")
                json.string(seat.id)
                json.key("number")
                json.string(seat.number)
                json.key("price")
                json.number(seat.price)
                json.key("priceCents")
                json.number(seat.priceCents)
                json.key("row")
                json.string(seat.row)
                json.key("seatMapId")
                json.string(seat.seatMapId)
                json.key("section")
                json.string(seat.section)
                json.key("status")
                json.string(seat.status.rawValue)
            }
        }
        return writer.buffer
    }
}
