#ifndef KOKKOSDTENSOR_TEST_MPICALLCOUNTER_HPP
#define KOKKOSDTENSOR_TEST_MPICALLCOUNTER_HPP

// Counts MPI calls made by this process through the PMPI profiling interface: the test
// executable defines the MPI_* functions below (forwarding to PMPI_*), so every call that
// the library makes to one of them is counted. Lets tests assert "zero MPI calls".

namespace MpiCallCounter {
// Calls that move data or synchronise ranks (point-to-point, collectives, communicator
// creation, request completion).
long communication_calls();
// Every counted call, including local queries such as MPI_Comm_rank.
long all_calls();
void reset();
}  // namespace MpiCallCounter

#endif
