import ConciergeCore
import ConciergeModels
import Hummingbird

/// `/rides/places`: autocomplete and details from the active places provider.
struct RidesPlacesController {
    let places: any PlacesProvider

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("places/autocomplete", use: autocomplete)
        group.get("places/:placeId", use: details)
    }

    @Sendable func autocomplete(request: Request, context: AppRequestContext) async throws -> Response {
        let input = try request.requiredQuery("input", maxLength: 200)
        let latitude = try request.optionalDouble("lat", in: -90...90)
        let longitude = try request.optionalDouble("lon", in: -180...180)
        guard (latitude == nil) == (longitude == nil) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request", message: "Send both 'lat' and 'lon', or neither.")
        }
        let near = latitude.flatMap { lat in longitude.map { Coordinate(latitude: lat, longitude: $0) } }
        let suggestions = try await places.autocomplete(
            input: input, near: near, sessionToken: request.optionalQuery("sessionToken"))
        return try jsonResponse(
            PlacesAutocompleteResponse(
                suggestions: suggestions.prefix(10).map {
                    PlaceSuggestionResponse(
                        placeId: $0.placeId, description: $0.description, mainText: $0.mainText,
                        secondaryText: $0.secondaryText, kind: $0.kind.rawValue)
                }))
    }

    @Sendable func details(request: Request, context: AppRequestContext) async throws -> Response {
        let placeId = try context.parameters.require("placeId")
        guard placeId.count <= 300,
            let place = try await places.details(placeId: placeId, sessionToken: request.optionalQuery("sessionToken"))
        else {
            throw ConciergeError(
                .notFound, code: "place_not_found", message: "There is no place with the ID '\(placeId.prefix(60))'.")
        }
        return try jsonResponse(
            PlaceDetailsResponse(
                placeId: place.placeId, name: place.name, formattedAddress: place.formattedAddress,
                latitude: place.coordinate.latitude, longitude: place.coordinate.longitude, kind: place.kind.rawValue,
                timeZone: place.timeZone))
    }
}
