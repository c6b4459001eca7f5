import ConciergeModels
import NIOCore

/// `GET /stays/rooms` is the stays app's hottest read (every change of dates or party asks
/// again), and `JSONEncoder` was a fifth of the server's work per search in a profile of
/// `bench http --scenarios stays-rooms`. The wrapper and its rooms are written directly, byte
/// for byte what `Wire.encoder` writes (keys sorted; `StaysRoomsJSONTests` holds the two
/// together).
extension Stays.APIResponse where T == [Stays.RoomHotel] {
    var json: ByteBuffer {
        var writer = JSONWriter(capacity: 512 + 512 * (data?.count ?? 0))
        writer.object { json in
            json.key("data")
            if let rooms = data {
                json.array(rooms) { json, room in room.write(to: &json) }
            } else {
                json.null()
            }
            json.key("errorType")
            if let errorType { json.string(errorType) } else { json.null() }
            json.key("message")
            json.string(message)
            json.key("messsage")
            json.string(message)
            json.key("status")
            json.number(status)
            json.key("timeStamp")
            json.number(Int(timeStamp))
        }
        return writer.buffer
    }
}

extension Stays.RoomHotel {
    fileprivate func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("available")
            json.number(available)
            json.key("cancellationPolicy")
            json.string(cancellationPolicy)
            json.key("currency")
            json.string(currency)
            json.key("description")
            json.string(description)
            json.key("id")
            json.number(Int(id))
            json.key("nights")
            json.number(nights)
            json.key("pathImage")
            json.string(pathImage)
            json.key("paymentPolicy")
            json.string(paymentPolicy)
            json.key("peopleQuantity")
            json.number(peopleQuantity)
            json.key("price")
            json.number(price)
            json.key("priceCents")
            json.number(priceCents)
            json.key("roomType")
            json.string(roomType)
            json.key("taxPrice")
            json.number(taxPrice)
            json.key("taxPriceCents")
            json.number(taxPriceCents)
            json.key("totalPrice")
            json.number(totalPrice)
            json.key("totalPriceCents")
            json.number(totalPriceCents)
        }
    }
}
