import ThumbKit

