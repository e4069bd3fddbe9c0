import TickKit

typealias TickKitState = TickKit.TaskState
typealias TaskFilterSpec = TickKit.TaskFilter
