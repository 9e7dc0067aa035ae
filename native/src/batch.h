// Many datagrams in few system calls: the send side shared by the raw Ethernet and UDP sockets.
#pragma once
#include <napi.h>
#include <sys/socket.h>
#include <string>
#include <vector>

class BatchSender {
 public:
  int fd = -1;
  std::string name;  // interface or address, for error messages

  ~BatchSender() { Close(); }
  // sendBatch(buf, lengths: Uint32Array, timeoutMs = 50): sends the packets laid end to end in
  // buf with sendmmsg, waiting for queue room up to timeoutMs. Returns how many went out; throws
  // an errno error, ETIMEDOUT when the queue stayed full.
  Napi::Value SendJs(const Napi::CallbackInfo& info);
  void Close();

 private:
  std::vector<iovec> iov_;
  std::vector<mmsghdr> msgs_;
};
