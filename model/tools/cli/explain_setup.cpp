#include "tools/cli/explain_setup.h"

#include <stdexcept>

#include "nic/wire_source.h"
#include "software/pktgen.h"

namespace pcisim::cli {

ExplainSetup transmit_setup(const Scenario& s, const Recording& rec, const nlohmann::json& results) {
    ExplainSetup setup;
    setup.packet_size = static_cast<double>(PktgenOptions::from(s).size);
    setup.wire_frames = s.text("workload.kind") == "tcp_stream";
    for (const auto& port : results["ports"])
        if (port["nic"] == rec.port().nic && port["port"] == rec.port().port)
            setup.measured_pps = port["tx_pps"].get<double>();
    return setup;
}

ReceiveSetup receive_setup(const Scenario& s, const Recording& rec, const nlohmann::json& results) {
    ReceiveSetup setup;
    const RecordedPort* rx = rec.receive_port();
    if (!rx) throw std::runtime_error("no port receives on the bus segment explain records");
    if (results.contains("rx")) {
        setup.run_rx = results["rx"];
        // rx_pps_by_port lists the receiving ports in the order of `ports`.
        const WireSourceConfig wire = WireSourceConfig::from(s);
        unsigned k = 0;
        for (const auto& port : results["ports"]) {
            if (!wire.receives(port["port"].get<unsigned>())) continue;
            if (port["nic"] == rx->nic && port["port"] == rx->port)
                setup.measured_pps = results["rx"]["rx_pps_by_port"][k].get<double>();
            ++k;
        }
    }
    return setup;
}

}  // namespace pcisim::cli
