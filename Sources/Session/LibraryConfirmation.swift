import Foundation
import Library
import SystemPackage
import Threads

/// The walk that confirms a library shown as the index remembered it (`RememberedTimeline`), on a thread of
/// its own: what it found otherwise comes as changes to the folders, with the folders it listed (the ones
/// the live library then follows).
final class LibraryConfirmation: Sendable {
    struct Found: Sendable {
        let changes: FolderWatcher.Changes
        let folders: Set<FilePath>
    }

    private let remembered: RememberedTimeline
    private let walk: @Sendable () -> (photos: [Photo], folders: Set<FilePath>)
    /// What the walk found, until it is taken.
    private let found = Locked<Found?>(nil)

    /// `walk` lists and dates the tree as a launch without an index does.
    init(remembered: RememberedTimeline, walk: @escaping @Sendable () -> (photos: [Photo], folders: Set<FilePath>)) {
        self.remembered = remembered
        self.walk = walk
    }

    /// Walks the tree; `wake` is called once what it found can be taken.
    func start(wake: @escaping @Sendable () -> Void) {
        Worker.start(named: "photozoom library walk") { [self] in
            let walked = walk()
            let changes = remembered.changes(to: walked.photos)
            found.withLock { $0 = Found(changes: changes, folders: walked.folders) }
            wake()
        }
    }

    /// What the walk found, once (nil until it is done).
    func take() -> Found? {
        found.withLock { found in
            defer { found = nil }
            return found
        }
    }
}
