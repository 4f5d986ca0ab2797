#include "MpiCallCounter.hpp"

#include <mpi.h>

#include <atomic>

namespace {
std::atomic<long> communication{0};
std::atomic<long> local_queries{0};
}  // namespace

namespace MpiCallCounter {
long communication_calls() { return communication.load(); }
long all_calls() { return communication.load() + local_queries.load(); }
void reset() {
  communication = 0;
  local_queries = 0;
}
}  // namespace MpiCallCounter

#define KDT_COUNT_COMMUNICATION ++communication
#define KDT_COUNT_LOCAL ++local_queries

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Send(buf, count, type, dest, tag, comm);
}
int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Recv(buf, count, type, source, tag, comm, status);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}
int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Irecv(buf, count, type, source, tag, comm, request);
}
int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                       source, recvtag, comm, status);
}
int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Wait(request, status);
}
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Waitall(count, requests, statuses);
}
int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Test(request, flag, status);
}
int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Testall(count, requests, flag, statuses);
}
int MPI_Barrier(MPI_Comm comm) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Barrier(comm);
}
int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Ibarrier(comm, request);
}
int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Bcast(buf, count, type, root, comm);
}
int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
               MPI_Request* request) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Ibcast(buf, count, type, root, comm, request);
}
int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
}
int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}
int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, MPI_Request* request) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request);
}
int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}
int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Comm_split(comm, color, key, newcomm);
}
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Comm_dup(comm, newcomm);
}
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Comm_idup(comm, newcomm, request);
}
int MPI_Comm_free(MPI_Comm* comm) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Comm_free(comm);
}
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Iprobe(source, tag, comm, flag, status);
}
int MPI_Cancel(MPI_Request* request) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Cancel(request);
}
int MPI_Request_free(MPI_Request* request) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Request_free(request);
}
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  KDT_COUNT_COMMUNICATION;
  return PMPI_Comm_create_group(comm, group, tag, newcomm);
}
int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  KDT_COUNT_LOCAL;
  return PMPI_Comm_rank(comm, rank);
}
int MPI_Comm_size(MPI_Comm comm, int* size) {
  KDT_COUNT_LOCAL;
  return PMPI_Comm_size(comm, size);
}
int MPI_Initialized(int* flag) {
  KDT_COUNT_LOCAL;
  return PMPI_Initialized(flag);
}
int MPI_Finalized(int* flag) {
  KDT_COUNT_LOCAL;
  return PMPI_Finalized(flag);
}

}  // extern "C"
