import ConciergeModels
import NIOCore

/// `GET /rides/pricing` is the hottest read there is (an app asks again on every change of place,
/// time or class), so its answer is written directly rather than through `JSONEncoder`.
extension PricingResponse {
    var json: ByteBuffer {
        var writer = JSONWriter()
        writer.object { json in
            json.key("adjustments")
            json.array(adjustments) { json, adjustment in
                json.object { json in
                    if let amountCents = adjustment.amountCents {
                        json.key("amountCents")
                        json.number(amountCents)
                    }
                    json.key("code")
                    json.string(adjustment.code)
                    json.key("label")
                    json.string(adjustment.label)
                    if let percent = adjustment.percent {
                        json.key("percent")
                        json.number(percent)
                    }
                }
            }
            json.key("currency")
            json.string(currency)
            json.key("distanceKm")
            json.number(distanceKm)
            json.key("durationMinutes")
            json.number(durationMinutes)
            json.key("pickupDatetime")
            json.string(pickupDatetime)
            json.key("prices")
            json.object { json in
                for (name, price) in [("business", prices.business), ("first", prices.first), ("xl", prices.xl)] {
                    json.key(name)
                    json.object { json in
                        json.key("maxPassengers")
                        json.number(price.maxPassengers)
                        json.key("priceCents")
                        json.number(price.priceCents)
                        json.key("priceFormatted")
                        json.string(price.priceFormatted)
                        json.key("vehicle")
                        json.string(price.vehicle)
                    }
                }
            }
            json.key("success")
            json.bool(success)
        }
        return writer.buffer
    }
}
