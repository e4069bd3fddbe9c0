import TickKit
