import CSandbox
import Glibc

/// A file's extended attributes (user tags, SELinux labels, POSIX ACLs as `system.posix_acl_access`), copied
/// onto the file that replaces it. One that can't be set here (a namespace the user may not write) is left.
enum ExtendedAttributes {
    static func copy(from source: Int32, to target: Int32) {
        let size = flistxattr(source, nil, 0)
        guard size > 0 else { return }
        var names = [CChar](repeating: 0, count: size)
        let listed = flistxattr(source, &names, size)
        guard listed > 0 else { return }
        for name in names[..<listed].split(separator: 0) {
            let key = Array(name) + [0]
            let length = fgetxattr(source, key, nil, 0)
            guard length >= 0 else { continue }
            var value = [UInt8](repeating: 0, count: max(1, length))
            let read = fgetxattr(source, key, &value, length)
            guard read >= 0 else { continue }
            _ = fsetxattr(target, key, value, read, 0)
        }
    }
}
