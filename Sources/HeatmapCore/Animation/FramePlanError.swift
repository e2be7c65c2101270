/// Why an animation's frames cannot be planned, with a message naming the value at fault.
package struct FramePlanError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The broad cause of a ``FramePlanError``.
    package enum Kind: Sendable, Hashable {
        /// A step or window is not a whole number and a unit (`1d`, `1mo`).
        case unparsable
        /// A step or window is zero or negative.
        case nonPositiveLength
        /// A step or window has more units than ``TimeStep/maximumCount``.
        case lengthTooLong
        /// The interval's end is not after its start, or an end lies outside ``CivilTime/range``.
        case badInterval
        /// The step makes more than ``FramePlan/maximumFrameCount`` frames over the interval.
        case tooManyFrames
        /// The interval has an open end and its filters keep no point to close it on: there is
        /// nothing to animate (the server's 204).
        case keepsNothing
    }

    /// The broad cause.
    package let kind: Kind
    /// What is wrong and what to do, naming the value.
    package let message: String

    /// An error of `kind` saying `message`.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The ``message``.
    package var description: String { message }
}
