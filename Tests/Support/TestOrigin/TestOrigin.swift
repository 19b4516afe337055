// The fault-injecting test origin.
import Foundation
