import Library
import SystemPackage

/// Where each photo the grid shows is, by its file: made when first asked after the photos change, since mapping
/// 100,000 files takes some 50 ms and a change of view rarely asks.
final class ShownPlaces {
    private var places: [FilePath: Int]?
    private let photos: () -> [Photo]

    init(of photos: @escaping () -> [Photo]) { self.photos = photos }

    subscript(file: FilePath) -> Int? {
        if let places { return places[file] }
        let made = Dictionary(photos().enumerated().map { ($1.file, $0) }, uniquingKeysWith: { first, _ in first })
        places = made
        return made[file]
    }

    /// The photos changed: the places are made again when next asked.
    func forget() { places = nil }
}
