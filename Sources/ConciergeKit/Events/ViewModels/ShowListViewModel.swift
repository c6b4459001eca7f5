public import ConciergeModels
import Foundation
public import Observation

extension Events {
    /// The state behind the show list: the upcoming shows, searched as the person types.
    ///
    /// ```swift
    /// let list = Events.ShowListViewModel(api: client)
    /// list.searchText = "jazz"
    /// await list.load()
    /// List(list.shows) { Text($0.title) }
    /// ```
    @Observable @MainActor public final class ShowListViewModel {
        /// Title, venue or location; case and accents do not matter.
        public var searchText = ""
        /// The shows, soonest first.
        public private(set) var shows: [Events.Show] = []
        public private(set) var isLoading = false
        /// What went wrong last, worded for a person; nil after a load succeeds.
        public private(set) var errorMessage: String?

        private let api: any EventsAPI

        public init(api: any EventsAPI) { self.api = api }

        /// Loads the shows matching ``searchText``.
        public func load() async {
            isLoading = true
            defer { isLoading = false }
            let text = searchText.trimmingCharacters(in: .whitespaces)
            do {
                shows = try await api.shows(EventsShowQuery(text: text.isEmpty ? nil : text))
                errorMessage = nil
            } catch {
                errorMessage = error.message
            }
        }
    }
}
