import Foundation

extension Coordinate {
    /// Mean earth radius (IUGG), in kilometres.
    static let earthRadiusKilometers = 6371.0088

    /// Great-circle distance by the haversine formula; accurate to about 0.5 % (the earth is not
    /// a sphere), which is far below what road detours add.
    public func distanceKilometers(to other: Coordinate) -> Double {
        let lat1 = latitude * .pi / 180
        let lat2 = other.latitude * .pi / 180
        let dLat = lat2 - lat1
        let dLon = (other.longitude - longitude) * .pi / 180
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * Self.earthRadiusKilometers * asin(min(1, sqrt(a)))
    }
}
