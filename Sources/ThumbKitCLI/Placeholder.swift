// The thumbkit command-line interface.
import ThumbKit

