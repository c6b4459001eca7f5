extension Events {
    /// A venue's layout for drawing: a stage and sections of seats at (x, y).
    public struct SeatMap: Codable, Sendable, Equatable {
        public struct Stage: Codable, Sendable, Equatable {
            public let x: Int
            public let y: Int
            public let width: Int
            public let height: Int
            public let label: String

            public init(x: Int, y: Int, width: Int, height: Int, label: String) {
                self.x = x
                self.y = y
                self.width = width
                self.height = height
                self.label = label
            }
        }

        public struct Section: Codable, Sendable, Equatable {
            public let id: String
            public let name: String
            public let color: String
            public let seats: [Seat]

            public init(id: String, name: String, color: String, seats: [Seat]) {
                self.id = id
                self.name = name
                self.color = color
                self.seats = seats
            }
        }

        public struct Seat: Codable, Sendable, Equatable {
            public let id: String
            public let row: String
            public let number: String
            public let x: Int
            public let y: Int
            public let category: String
            public let accessible: Bool

            public init(id: String, row: String, number: String, x: Int, y: Int, category: String, accessible: Bool) {
                self.id = id
                self.row = row
                self.number = number
                self.x = x
                self.y = y
                self.category = category
                self.accessible = accessible
            }
        }

        public let id: String
        public let name: String
        public let width: Int
        public let height: Int
        public let stage: Stage
        public let sections: [Section]

        public init(id: String, name: String, width: Int, height: Int, stage: Stage, sections: [Section]) {
            self.id = id
            self.name = name
            self.width = width
            self.height = height
            self.stage = stage
            self.sections = sections
        }
    }
}
