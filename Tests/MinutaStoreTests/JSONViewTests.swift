import AutomergeKit
@testable import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// The JSON view of the sample store (SPEC section 3), against expectations written from the
/// fixture dumps (`app-2024.expected`) by hand.
struct JSONViewTests {
    let store: Store

    init() throws {
        store = try Store(folder: FilePath(try Fixtures.directory("stores") + "/app-2024"), timeZone: .utc)
    }

    @Test("tags.json lists every tag in the legacy layout, ordered by createdAt")
    func tagsFile() throws {
        let expected = """
        {
          "tags": [
            {
              "id": "7993C5A5-14D0-4821-B976-E95BFDEB18D8",
              "name": "Commute",
              "color": "#0A84FF",
              "createdAt": "2024-01-01T08:03:39.312Z",
              "isArchived": false
            },
            {
              "id": "D379D310-C282-4C6A-B7F7-AD3B643E985D",
              "name": "Meetings & Calls",
              "color": "#E94E77",
              "createdAt": "2024-01-01T08:05:07.239Z",
              "isArchived": false
            },
            {
              "id": "3499450C-7F1D-41E0-9E00-4A6CAE04BC6F",
              "name": "Meeting",
              "color": "#4A90D9",
              "createdAt": "2024-01-01T08:07:36.667Z",
              "isArchived": true
            },
            {
              "id": "6AEAB6BD-E6DD-4A65-B4BC-483D0459ABE6",
              "name": "Yoga",
              "color": "#F8E71C",
              "createdAt": "2024-01-03T11:10:50.957Z",
              "isArchived": false
            },
            {
              "id": "11025F19-2DF6-4594-9CBA-CAEFB39E7A09",
              "name": "Écriture",
              "color": "#B8E986",
              "createdAt": "2024-01-03T11:13:19.020Z",
              "isArchived": false
            }
          ]
        }

        """
        #expect(StoreFixture.text(try store.tagsFile()) == expected)
    }

    @Test("record files are named by startTime and laid out as jq prints them", arguments: [
        (1, "2024-01-03_034234.json", """
        {
          "id": "0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81",
          "startTime": "2024-01-03T03:42:34.915Z",
          "endTime": "2024-01-03T17:05:39.638Z",
          "tagId": "7993C5A5-14D0-4821-B976-E95BFDEB18D8",
          "comment": "Rückmeldung an Jürgen",
          "images": []
        }

        """),
        (5, "2024-05-15_065335.json", """
        {
          "id": "A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586",
          "startTime": "2024-05-15T06:53:35.681Z",
          "endTime": "2024-05-15T07:30:32.206Z",
          "tagId": "11025F19-2DF6-4594-9CBA-CAEFB39E7A09",
          "comment": "Спринт ретро",
          "images": [
            "A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586_0.jpg"
          ],
          "billable": true
        }

        """),
        (7, "2024-07-12_213825.json", """
        {
          "id": "4C2165C8-7206-4C00-8707-E830D67910E2",
          "startTime": "2024-07-12T21:38:25.519Z",
          "endTime": "2024-07-13T01:44:37.436Z",
          "tagId": "6AEAB6BD-E6DD-4A65-B4BC-483D0459ABE6",
          "comment": "Reviewed PRs: #88, #91 and the big new (#95)",
          "images": []
        }

        """),
        (7, "2024-07-30_221426.json", """
        {
          "id": "584D6FD6-533B-4093-886B-ADBD402BFBF9",
          "startTime": "2024-07-30T22:14:26.932Z",
          "tagId": "D379D310-C282-4C6A-B7F7-AD3B643E985D",
          "images": []
        }

        """),
    ])
    func recordFile(month: Int, name: String, expected: String) throws {
        let monthValue = try #require(Month(year: 2024, month: month))
        let file = try #require(try store.recordFile(named: name, in: monthValue))
        #expect(StoreFixture.text(file.contents) == expected)
    }

    @Test("every record of every month has exactly one file", arguments: [
        (1, 59), (2, 66), (3, 69), (4, 52), (5, 65), (6, 59), (7, 59), (8, 64), (9, 48), (10, 62), (11, 50), (12, 49),
    ])
    func recordCounts(month: Int, count: Int) throws {
        let files = try store.recordFiles(in: #require(Month(year: 2024, month: month)))
        #expect(files.count == count)
        #expect(Set(files.map(\.name)).count == count)
    }

    @Test("file names follow the store's time zone")
    func timeZoneNames() throws {
        let tokyo = try Store(folder: FilePath(try Fixtures.directory("stores") + "/app-2024"), timeZone: #require(StoreTimeZone(identifier: "Asia/Tokyo")))
        // 2024-01-03T03:42:34.915Z is 12:42:34 in Tokyo (UTC+9).
        let january = try #require(Month(year: 2024, month: 1))
        #expect(try tokyo.recordFile(named: "2024-01-03_124234.json", in: january) != nil)
    }

    @Test("records sharing a second get the first 8 characters of their id")
    func collisions() throws {
        let names = RecordNaming.names(for: [("AAAAAAAA-0000-4000-8000-000000000001", 1_705_311_000_000),
                                                 ("BBBBBBBB-0000-4000-8000-000000000002", 1_705_311_000_500),
                                                 ("CCCCCCCC-0000-4000-8000-000000000003", nil)], timeZone: .utc)
        #expect(names == ["2024-01-15_093000_AAAAAAAA.json", "2024-01-15_093000_BBBBBBBB.json", "CCCCCCCC-0000-4000-8000-000000000003.json"])
    }
}
