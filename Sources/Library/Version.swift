/// The viewer's version: in the thumbnails it writes (`Software`) and its folder of failures.
public enum Version {
    public static let string = "0.11.0"
}
