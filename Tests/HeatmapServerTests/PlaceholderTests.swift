import HeatmapServer
import Testing

@Test func serverModuleLinks() {
    #expect(HeatmapServerInfo.name == "HeatmapKit")
}
