import Foundation
import Library
import SystemPackage

/// The walk that confirms a library shown as the index remembered it (`RememberedTimeline`), on a thread of
/// its own: what it found otherwise comes as changes to the folders, with the folders it listed (the ones
/// the live library then follows).
final class LibraryConfirmation: @unchecked Sendable {
    struct Found {
        let changes: FolderWatcher.Changes
        let folders: Set<FilePath>
    }

    private let remembered: RememberedTimeline
    private let walk: @Sendable () -> (photos: [Photo], folders: Set<FilePath>)
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var found: Found?

    /// `walk` lists and dates the tree as a launch without an index does.
    init(remembered: RememberedTimeline, walk: @escaping @Sendable () -> (photos: [Photo], folders: Set<FilePath>)) {
        self.remembered = remembered
        self.walk = walk
    }

    /// Walks the tree; `wake` is called once what it found can be taken.
    func start(wake: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            let walked = walk()
            let changes = remembered.changes(to: walked.photos)
            lock.withLock { found = Found(changes: changes, folders: walked.folders) }
            wake()
        }
        thread.name = "photozoom library walk"
        thread.start()
    }

    /// What the walk found, once (nil until it is done).
    func take() -> Found? {
        lock.withLock {
            defer { found = nil }
            return found
        }
    }
}
