// Auto-generated from instances.vantage.sh data
// Last updated: 2026-01-21
// Total GPU instances: 92 (excerpt: 8 instances, some regions)

const allGPUInstances = [
  {
    "name": "g3.4xlarge",
    "apiName": "g3.4xlarge",
    "gpu": "NVIDIA M60",
    "gpuCount": 1,
    "gpuMemory": "8 GB GDDR5",
    "vcpu": 16,
    "memory": "122 GB",
    "network": "Up to 10 Gigabit",
    "storage": "EBS Only",
    "pricing": {
      "ap-northeast-1": {
        "onDemand": 1.58
      },
      "ap-northeast-2": {
        "onDemand": 1.42
      },
      "ap-southeast-1": {
        "onDemand": 1.67
      },
      "ap-southeast-2": {
        "onDemand": 1.754
      },
      "ca-central-1": {
        "onDemand": 1.416
      },
      "eu-central-1": {
        "onDemand": 1.425
      },
      "eu-west-1": {
        "onDemand": 1.21
      },
      "eu-west-2": {
        "onDemand": 1.429
      },
      "us-east-1": {
        "onDemand": 1.14
      },
      "us-east-2": {
        "onDemand": 1.14
      },
      "us-gov-west-1": {
        "onDemand": 1.32
      },
      "us-west-1": {
        "onDemand": 1.534
      },
      "us-west-2": {
        "onDemand": 1.14
      }
    },
    "availability": [
      "ap-northeast-1",
      "ap-northeast-2",
      "ap-southeast-1",
      "ap-southeast-2",
      "ca-central-1",
      "eu-central-1",
      "eu-west-1",
      "eu-west-2",
      "us-east-1",
      "us-east-2",
      "us-gov-west-1",
      "us-west-1",
      "us-west-2"
    ],
    "generation": "current",
    "family": "GPU instance"
  },
  {
    "name": "g6.xlarge",
    "apiName": "g6.xlarge",
    "gpu": "NVIDIA L4",
    "gpuCount": 1,
    "gpuMemory": "24 GB GDDR6",
    "vcpu": 4,
    "memory": "16 GB",
    "network": "Up to 10 Gigabit",
    "storage": "250 GB SSD",
    "pricing": {
      "us-east-1": {
        "onDemand": 0.8048,
        "reserved": 0.52392
      },
      "us-west-2": {
        "onDemand": 0.8048,
        "reserved": 0.52392
      }
    },
    "availability": [
      "us-east-1",
      "us-west-2"
    ],
    "generation": "current",
    "family": "GPU instance"
  },
  {
    "name": "g6f.large",
    "apiName": "g6f.large",
    "gpu": "NVIDIA L40",
    "gpuCount": 0.125,
    "gpuMemory": "48 GB GDDR6",
    "vcpu": 2,
    "memory": "8 GB",
    "network": "Up to 10 Gigabit",
    "storage": "100 GB SSD",
    "pricing": {
      "us-east-1": {
        "onDemand": 0.202
      }
    },
    "availability": [
      "us-east-1"
    ],
    "generation": "current",
    "family": "GPU instance"
  },
  {
    "name": "g7e.2xlarge",
    "apiName": "g7e.2xlarge",
    "gpu": "NVIDIA RTX PRO 6000 Blackwell",
    "gpuCount": 1,
    "gpuMemory": "96 GB GDDR7",
    "vcpu": 8,
    "memory": "64 GB",
    "network": "50 Gigabit",
    "storage": "1900 GB SSD",
    "pricing": {
      "us-east-1": {
        "onDemand": 3.36312
      },
      "us-east-2": {
        "onDemand": 3.36312
      }
    },
    "availability": [
      "us-east-1",
      "us-east-2"
    ],
    "generation": "current",
    "family": "GPU instance"
  },
  {
    "name": "inf1.xlarge",
    "apiName": "inf1.xlarge",
    "gpu": "AWS Inferentia",
    "gpuCount": 1,
    "gpuMemory": "8 GB",
    "vcpu": 4,
    "memory": "8 GB",
    "network": "Up to 25 Gigabit",
    "storage": "EBS Only",
    "pricing": {
      "us-east-1": {
        "onDemand": 0.228,
        "reserved": 0.144
      }
    },
    "availability": [
      "us-east-1"
    ],
    "generation": "current",
    "family": "Machine Learning ASIC Instances"
  },
  {
    "name": "p4d.24xlarge",
    "apiName": "p4d.24xlarge",
    "gpu": "NVIDIA A100",
    "gpuCount": 8,
    "gpuMemory": "320 GB HBM2",
    "vcpu": 96,
    "memory": "1152 GiB",
    "network": "400 Gbps EFA",
    "storage": "8 x 1 TB NVMe SSD",
    "pricing": {
      "ap-northeast-1": {
        "onDemand": 30.09784,
        "reserved": 19.579678
      },
      "eu-west-1": {
        "onDemand": 23.71569,
        "reserved": 15.08188
      },
      "us-east-1": {
        "onDemand": 21.957642,
        "reserved": 13.921094
      }
    },
    "availability": [
      "ap-northeast-1",
      "eu-west-1",
      "us-east-1"
    ],
    "generation": "current",
    "family": "GPU instance",
    "ebsBandwidth": "19 Gbps",
    "gpuInterconnect": "600 GB/s NVSwitch",
    "gpuDirectRDMA": true,
    "source": "merged"
  },
  {
    "name": "p5.48xlarge",
    "apiName": "p5.48xlarge",
    "gpu": "NVIDIA H100",
    "gpuCount": 8,
    "gpuMemory": "640 GB HBM3",
    "vcpu": 192,
    "memory": "2048 GiB",
    "network": "3200 Gbps EFAv2",
    "storage": "8 x 3.84 TB NVMe SSD",
    "pricing": {
      "us-east-1": {
        "onDemand": 55.04
      },
      "us-west-2": {
        "onDemand": 55.04
      }
    },
    "availability": [
      "us-east-1",
      "us-west-2"
    ],
    "generation": "current",
    "family": "GPU instance",
    "ebsBandwidth": "80 Gbps",
    "gpuInterconnect": "900 GB/s NVSwitch",
    "gpuDirectRDMA": true,
    "source": "merged"
  },
  {
    "name": "p6-b200.48xlarge",
    "apiName": "p6-b200.48xlarge",
    "gpu": "NVIDIA B200 Blackwell",
    "gpuCount": 8,
    "gpuMemory": "1432 GB HBM3e",
    "vcpu": 192,
    "memory": "2048 GiB",
    "network": "3200 Gbps EFAv4",
    "storage": "8 x 3.84 TB NVMe SSD",
    "pricing": {
      "us-east-1": {
        "onDemand": 113.9328
      },
      "us-east-1-atl-1": {
        "onDemand": 113.9328
      },
      "us-east-2": {
        "onDemand": 113.9328
      },
      "us-west-2": {
        "onDemand": 113.9328
      }
    },
    "availability": [
      "us-east-1",
      "us-east-1-atl-1",
      "us-east-2",
      "us-west-2"
    ],
    "generation": "current",
    "family": "GPU instance",
    "ebsBandwidth": "100 Gbps",
    "gpuInterconnect": "1800 GB/s NVLink",
    "gpuDirectRDMA": true,
    "source": "merged"
  }
];
